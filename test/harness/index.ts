export { runNode, runWorkflow, loadPackage, fullNodeType, stopEngine, PACKAGE_NAME } from './engine';
export type { CredentialSet, NodeRunResult, RunNodeOptions, WorkflowDefinition } from './engine';
export { credentialsFor, testCredential } from './credentials';
export type { CredentialTestResult } from './credentials';
export { useSandbox } from './sandbox';
export { airportByCode, DAILY_FROM_2030_SCHEDULE, DAILY_FROM_2030_SCHEDULE_BODY, VALID_SHOP_UPDATE, VALID_SHOP_UPDATE_BODY } from './fixtures';
