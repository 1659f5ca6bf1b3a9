import type { ApiVersion } from './types';

/**
 * What differs between the n8n versions the stand-in answers as, each read from that version's
 * compiled source and checked against it by test/e2e/dataTablesStandIn.e2e.test.ts.
 */
export interface VersionBehaviour {
	version: ApiVersion;
	/** Tables carry `sizeBytes` (the cached size, as the limits route has it): 2.41. */
	tableSizeBytes: boolean;
	/** /data-tables/{id}/columns and /columns/{columnId}: 2.41. */
	columnEndpoints: boolean;
	/** DELETE /data-tables/{id}/rows/clear: 2.41. */
	clearEndpoint: boolean;
	/** isEmpty and isNotEmpty in the filters of reads and deletes (not of update or upsert, whose OpenAPI schema lists eight conditions): 2.41. */
	emptinessConditions: boolean;
	/**
	 * A key's scopes are checked on every call: 2.41 always; 2.8.4 only with an enterprise licence
	 * (apiKeyScopes), without which it also gives every key all of its owner's scopes.
	 */
	scopesEnforcedByDefault: boolean;
	/** Creating a table with a column named id, createdAt, updatedAt (any case) or dryRunState is refused by n8n itself (2.41); 2.8.4 leaves it to the database. */
	reservedColumnNamesChecked: boolean;
	/** `size:asc` and `size:desc` among the table list's sort options: 2.41. */
	sortTablesBySize: boolean;
	/** N8N_DATA_TABLES_MAX_SIZE_BYTES's default (@n8n/config's data-table.config.js): 50 MiB up to 2.26, 200 MiB from 2.27. */
	defaultMaxSizeBytes: number;
}

export const VERSIONS: Record<ApiVersion, VersionBehaviour> = {
	'2.8.4': {
		version: '2.8.4',
		tableSizeBytes: false,
		columnEndpoints: false,
		clearEndpoint: false,
		emptinessConditions: false,
		scopesEnforcedByDefault: false,
		reservedColumnNamesChecked: false,
		sortTablesBySize: false,
		defaultMaxSizeBytes: 50 * 1024 * 1024,
	},
	'2.41.1': {
		version: '2.41.1',
		tableSizeBytes: true,
		columnEndpoints: true,
		clearEndpoint: true,
		emptinessConditions: true,
		scopesEnforcedByDefault: true,
		reservedColumnNamesChecked: true,
		sortTablesBySize: true,
		defaultMaxSizeBytes: 200 * 1024 * 1024,
	},
};

export const NEWEST_VERSION: ApiVersion = '2.41.1';
