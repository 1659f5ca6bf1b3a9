/**
 * The "sheet" of the example "Schedules from a sheet": an n8n Data Table, created through n8n's
 * public API (/api/v1/data-tables) with an API key of the Data Table scopes, as `npm start` and
 * the e2e suite both create it.
 */

/** The table the example's Data Table nodes name "By Name", so the file carries no table id. */
export const SCHEDULE_SHEET_NAME = 'travel_pricing_schedules';

type ColumnType = 'string' | 'number';

/** The row's wanted schedule, then what the workflow writes back (scheduleid to error). */
export const SCHEDULE_SHEET_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'name', type: 'string' },
	{ name: 'rateShopId', type: 'number' },
	{ name: 'months', type: 'string' },
	{ name: 'daysOfWeek', type: 'string' },
	{ name: 'daysOfMonth', type: 'string' },
	{ name: 'hours', type: 'string' },
	{ name: 'minute', type: 'number' },
	{ name: 'startDate', type: 'string' },
	{ name: 'endDate', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'scheduleid', type: 'number' },
	{ name: 'action', type: 'string' },
	{ name: 'fingerprint', type: 'string' },
	{ name: 'nextRun', type: 'string' },
	{ name: 'error', type: 'string' },
];

/** Three sample hotels, one schedule each, on rate shops the sandbox knows. */
export const SAMPLE_SCHEDULE_ROWS: ReadonlyArray<Record<string, string | number>> = [
	{
		name: 'Cape Town Harbour Hotel, weekday mornings',
		rateShopId: 1,
		months: '*',
		daysOfWeek: 'Mon-Fri',
		daysOfMonth: '',
		hours: '6',
		minute: 30,
		startDate: '2027-01-01',
		endDate: '',
		status: 'active',
	},
	{
		name: 'Camps Bay Suites, weekends twice a day',
		rateShopId: 1,
		months: '*',
		daysOfWeek: 'Sat, Sun',
		daysOfMonth: '',
		hours: '8,20',
		minute: 0,
		startDate: '2027-01-01',
		endDate: '',
		status: 'active',
	},
	{
		name: 'Airport Lodge, 1st and 15th in peak season',
		rateShopId: 7,
		months: 'Dec, Jan, Feb',
		daysOfWeek: '*',
		daysOfMonth: '1,15',
		hours: '5',
		minute: 15,
		startDate: '2027-01-01',
		endDate: '',
		status: 'active',
	},
];

export type SheetRow = Record<string, unknown> & { id: number };

/** n8n's public API with one API key (sent as X-N8N-API-KEY). */
export class N8nPublicApi {
	constructor(
		readonly baseUrl: string,
		private readonly apiKey: string,
	) {}

	async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: {
				accept: 'application/json',
				'X-N8N-API-KEY': this.apiKey,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /api/v1${path} answered ${response.status}: ${text.slice(0, 300)}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}
}

/**
 * The id of the schedule sheet, created with its columns and the three sample hotels when n8n has
 * no table of that name. An existing table is left as the user keeps it.
 */
export async function ensureScheduleSheet(api: N8nPublicApi): Promise<{ id: string; created: boolean }> {
	const listing = await api.request<{ data: Array<{ id: string; name: string }> }>(
		'GET',
		`/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: SCHEDULE_SHEET_NAME }))}&limit=250`,
	);
	// The name filter may match by substring: only the exact name counts.
	const existing = listing.data.find((table) => table.name === SCHEDULE_SHEET_NAME);
	if (existing) return { id: existing.id, created: false };
	const table = await api.request<{ id: string }>('POST', '/data-tables', {
		name: SCHEDULE_SHEET_NAME,
		columns: SCHEDULE_SHEET_COLUMNS,
	});
	await api.request('POST', `/data-tables/${table.id}/rows`, { data: SAMPLE_SCHEDULE_ROWS, returnType: 'count' });
	return { id: table.id, created: true };
}

/** Every row of the sheet, in the order they were added. */
export async function scheduleSheetRows(api: N8nPublicApi, tableId: string): Promise<SheetRow[]> {
	const page = await api.request<{ data: SheetRow[] }>('GET', `/data-tables/${tableId}/rows?sortBy=${encodeURIComponent('id:asc')}&limit=250`);
	return page.data;
}

/** Edits one row of the sheet, as a user edits a cell. */
export async function editScheduleSheetRow(api: N8nPublicApi, tableId: string, rowId: number, data: Record<string, unknown>): Promise<void> {
	await api.request('PATCH', `/data-tables/${tableId}/rows/update`, {
		filter: { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: rowId }] },
		data,
	});
}
