export {
	airportByCode,
	credentialsFor,
	DAILY_FROM_2030_SCHEDULE,
	fullNodeType,
	loadPackage,
	PACKAGE_NAME,
	runNode,
	runWorkflow,
	stopEngine,
	testCredential,
	VALID_SHOP_UPDATE,
} from '../../platform/engine';
export type { CredentialSet, CredentialTestResult, NodeRunResult, RunNodeOptions, WorkflowDefinition } from '../../platform/engine';
export { useSandbox } from './sandbox';
export { DAILY_FROM_2030_SCHEDULE_BODY, VALID_SHOP_UPDATE_BODY } from './fixtures';
