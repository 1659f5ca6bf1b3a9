export {
	LIMITS_PATH,
	PROJECT_NAME,
	startDataTablesApi,
	type ApiKeyGrant,
	type DataTablesApi,
	type DataTablesApiOptions,
	type LoggedRequest,
	type TableSummary,
} from './server';
export { DEFAULT_LATENCY_MS, type Fault, type FaultKind, type FaultMatch, type FaultPlan, type FaultRule, type RequestInfo } from './faults';
export type { Operation } from './operations';
export { DEFAULT_SIZE_CACHE_MS, sizeLimitMessage, type SizeModelName } from './size';
export { MAX_PAGE_SIZE } from './paging';
export type { ApiVersion, ColumnType, RowJson } from './types';
export { NEWEST_VERSION } from './versions';
