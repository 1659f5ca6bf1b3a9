export { runNode, runWorkflow, loadPackage, fullNodeType, stopEngine, PACKAGE_NAME } from './engine';
export type { CredentialSet, NodeRunResult, RunNodeOptions, WorkflowDefinition } from './engine';
export { credentialsFor, testCredential } from './credentials';
export type { CredentialTestResult } from './credentials';
export { inferOutputSchemas, OUTPUT_SCHEMA_CASES, OUTPUT_SCHEMA_SANDBOX, readSchemaFile, schemaPath, schemaText, shopRun } from './outputSchemas';
export { airportByCode, DAILY_FROM_2030_SCHEDULE, VALID_SHOP_UPDATE } from './parameters';
