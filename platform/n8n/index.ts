export { DEMO_OWNER, DEMO_PORTS, DEMO_SHOPS, portFor, readyText, startDemo, type Demo, type DemoOptions, type DemoPorts } from './demo';
export {
	callMorningDigest,
	demoExample,
	demoExamples,
	digestExample,
	digestOnCall,
	EXAMPLE_FILES,
	EXAMPLES_DIR,
	pointAtSlack,
	readExampleFile,
	SLACK_PLACEHOLDER,
	slackChannelOf,
	type SlackTarget,
} from './examples';
export { packPackage, installCommunityPackage, ownPackageJson, REPO_ROOT } from './communityPackage';
export {
	API_CREDENTIAL,
	AIRPORTS_CREDENTIAL,
	bindCredentials,
	DATA_TABLE_SCOPES,
	DEMO_MODEL_CREDENTIAL,
	demoModelCredential,
	DEMO_SMTP_CREDENTIAL,
	demoSmtpCredential,
	MCP_BEARER_CREDENTIAL,
	mcpBearerCredential,
	N8N_API_CREDENTIAL,
	n8nApiCredential,
	rateChangesKeyScopes,
	serviceCredentials,
	type ServiceAccess,
} from './credentials';
export { installDebianPackages, onPath } from './debian';
export {
	E2E_OWNER,
	e2eVersions,
	longE2eVersions,
	NO_DATA_TABLES_REFUSAL,
	publicApiHasDataTables,
	RATE_CHANGES_KEY_LABEL,
	startE2e,
	type E2eEnvironment,
	type E2eOptions,
} from './environment';
export { N8nCli, type CredentialSeed, type WorkflowSeed } from './cli';
export { N8nInstance, type N8nInstanceOptions } from './instance';
export {
	connectMcpClient,
	MCP_EXAMPLE_FILE,
	mcpExample,
	mcpExampleAccess,
	mcpTriggerAccess,
	type McpAccess,
	type McpTransport,
} from './mcp';
export { jsonLogEntries, N8nProcess, START_TIMEOUT_MS } from './n8nProcess';
export { N8nRestClient, type ExecutionError, type Owner, type RestResponse, type StoredExecution } from './rest';
export { retryFailedExecutions, type Recovery } from './recovery';
export { dataTablesUsage, fillDataTables, type DataTablesUsage } from './dataTablesFill';
export { shareOfWrites, startFaultProxy, type FaultProxy, type ProxiedRequest, type ProxyFault, type ProxyLogEntry, type ProxyPlan, type WriteFaults } from './faultProxy';
export { outputOf, parseRun, type WorkflowRun } from './workflowRun';
export { startScriptedModel, type ScriptedModel } from './scriptedModel';
export { freePort, runChecked, runCommand, spawnGroup, type GroupProcess } from './processes';
export {
	CACHE_ROOT,
	ensureN8n,
	formatDuration,
	isN8n1x,
	LTS_1X_N8N,
	NEWEST_N8N,
	OLDEST_N8N,
	printProgress,
	PROVEN_N8N_VERSIONS,
	recommendedEnv,
	takesIsolatePerWebhookRequest,
	type N8nRuntime,
} from './runtime';
export {
	editScheduleSheetRow,
	ensureScheduleSheet,
	N8nPublicApi,
	SAMPLE_SCHEDULE_ROWS,
	SCHEDULE_SHEET_COLUMNS,
	SCHEDULE_SHEET_NAME,
	scheduleSheetRows,
	type SheetRow,
} from './scheduleSheet';
export { editorTrigger } from './editorTrigger';
