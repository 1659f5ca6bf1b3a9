import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { demoExamples, readyText, type Demo } from '../../platform/n8n';
import { mcpExampleAccess } from '../../platform/n8n/mcp';
import { loadPackage, useSandbox } from '../harness';

/**
 * What the documentation says about the nodes that can be read off the built package: an audit
 * found each of these false once, so each is checked against what n8n loads.
 */

const ROOT = path.resolve(__dirname, '../..');
const COUNT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

let allNodes: INodeTypeDescription[];

beforeAll(async () => {
	const loader = await loadPackage();
	allNodes = Object.values(loader.nodeTypes).map(({ type }) => (type as INodeType).description);
});

/** A page's text with its line breaks as spaces, so a sentence wrapped over lines reads whole. */
function prose(page: string): string {
	return fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/\s+/g, ' ');
}

/** Every field of a node, with the fields inside its collections. */
function fieldsOf(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((field) => [
		field,
		...(field.options ?? []).flatMap((option) => {
			if ('type' in option) return fieldsOf([option as INodeProperties]);
			if ('values' in option) return fieldsOf(option.values);
			return [];
		}),
	]);
}

function operationNames(description: INodeTypeDescription): string[] {
	const operation = description.properties.find((field) => field.name === 'operation' && field.type === 'options');
	return (operation?.options ?? []).map((option) => option.name);
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe("docs/nodes/README.md names and counts each node's operations", () => {
	it('names every operation a node offers, and its count word matches the names it gives', () => {
		const page = prose('docs/nodes/README.md');
		const withOperations = allNodes.filter((description) => operationNames(description).length > 0);
		expect(withOperations.map((description) => description.defaults.name).sort()).toEqual(['Rate Changes', 'Schedule']);
		for (const description of withOperations) {
			const name = escapeRegExp(description.defaults.name!);
			const sentence = new RegExp(`${name}(?: opens)? its (\\w+)(?: actions)? \\(([^)]+)\\)`).exec(page);
			expect(sentence).not.toBeNull();
			const [, countWord, list] = sentence!;
			const documented = list.split(/, /);
			expect(countWord).toBe(COUNT_WORDS[documented.length]);
			// A name the build does not offer yet is allowed: an operation's line may land in the
			// docs before its code does. One the node offers and the docs leave out is not.
			expect(documented).toEqual(expect.arrayContaining(operationNames(description)));
		}
	});
});

describe("the README's node and credential tables follow the nodes' descriptions", () => {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	/** A table's rows whose first cell names `code` in backticks, as cells. */
	const rowOf = (code: string): string[] | undefined =>
		readme
			.split('\n')
			.find((line) => line.startsWith('|') && line.split('|')[1]?.includes(`(\`${code}\`)`))
			?.split('|')
			.map((cell) => cell.trim());
	const shortName = (description: INodeTypeDescription) => description.displayName.replace(/^Travel Pricing /, '');

	it('gives every node a row that names each of its operations', () => {
		for (const description of allNodes) {
			const row = rowOf(description.name);
			expect({ node: description.name, row: row !== undefined }).toEqual({ node: description.name, row: true });
			for (const operation of operationNames(description)) expect({ node: description.name, names: row![2].includes(operation) ? operation : undefined }).toEqual({ node: description.name, names: operation });
		}
	});

	it("names, for each credential, exactly the nodes that take it", () => {
		const credentials = [...new Set(allNodes.flatMap((description) => (description.credentials ?? []).map(({ name }) => name)))];
		for (const credential of credentials) {
			const usedBy = rowOf(credential)?.[3] ?? '';
			const taking = allNodes.filter((description) => description.credentials?.some(({ name }) => name === credential)).map(shortName);
			const others = allNodes.map(shortName).filter((name) => !taking.includes(name));
			const named = (name: string) => new RegExp(`(^|[ ,(])${escapeRegExp(name)}([ ,)'.:;]|$)`).test(usedBy);
			expect({ credential, missing: taking.filter((name) => !named(name)), extra: others.filter(named) }).toEqual({ credential, missing: [], extra: [] });
		}
	});
});

describe('docs/requests.md gives the Concurrency the nodes have', () => {
	it('states the default of the service nodes and of Rate Changes, and the bounds', () => {
		const stated = /\*\*Concurrency\*\* \(default (\d+), Rate Changes (\d+); (\d+) to (\d+)\)/.exec(prose('docs/requests.md'));
		expect(stated).not.toBeNull();
		const [, serviceDefault, rateChangesDefault, min, max] = stated!.map(Number);
		const withConcurrency = allNodes.flatMap((description) =>
			fieldsOf(description.properties)
				.filter((field) => field.name === 'concurrency')
				.map((field) => ({ node: description.defaults.name, field })),
		);
		expect(withConcurrency.map(({ node }) => node)).toEqual(
			expect.arrayContaining(['Hotel Info', 'Event Impact', 'Airports', 'Hotel Demand', 'Rate Changes']),
		);
		for (const { node, field } of withConcurrency) {
			expect({ node, default: field.default }).toEqual({
				node,
				default: node === 'Rate Changes' ? rateChangesDefault : serviceDefault,
			});
			expect(field.typeOptions).toMatchObject({ minValue: min, maxValue: max });
		}
	});
});

describe('every example workflow has its row and section in docs/examples.md and its row in the README', () => {
	const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((file) => file.endsWith('.json'));

	it.each(examples)('%s', (file) => {
		const guide = fs.readFileSync(path.join(ROOT, 'docs/examples.md'), 'utf8');
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		expect(guide).toContain(`](../examples/${file})`);
		expect(readme).toContain(`](examples/${file})`);
		const row = guide.split('\n').find((line) => line.startsWith('| [') && line.includes(`](../examples/${file})`));
		const title = /^\| \[([^\]]+)\]/.exec(row ?? '')?.[1];
		expect(guide).toContain(`\n## ${title}\n`);
	});
});

describe('the tables of the documentation are whole', () => {
	const pages = [
		'README.md',
		...fs
			.readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.md'))
			.map((file) => path.join('docs', file)),
	];
	const SEPARATOR_ROW = /^\|(\s*:?-+:?\s*\|)+\s*$/;

	/** Runs of lines starting with "|", outside code blocks: each must be a header, its separator row and rows. */
	function tablesOf(text: string): Array<{ line: number; rows: string[] }> {
		const tables: Array<{ line: number; rows: string[] }> = [];
		let inCode = false;
		let current: { line: number; rows: string[] } | undefined;
		text.split('\n').forEach((row, index) => {
			if (row.trimStart().startsWith('```')) inCode = !inCode;
			if (!inCode && row.startsWith('|')) {
				current ??= { line: index + 1, rows: [] };
				current.rows.push(row);
				return;
			}
			if (current) tables.push(current);
			current = undefined;
		});
		if (current) tables.push(current);
		return tables;
	}

	it.each(pages)('%s: no paragraph splits a table, every table has its header row', (page) => {
		const broken = tablesOf(fs.readFileSync(path.join(ROOT, page), 'utf8'))
			.filter(({ rows }) => rows.length < 2 || !SEPARATOR_ROW.test(rows[1]))
			.map(({ line, rows }) => `line ${line}: ${rows[0]}`);
		expect(broken).toEqual([]);
	});
});

describe("the Rate Changes reference lists each table's columns as the node keeps them", () => {
	/** The `| column | type |` rows of the table after a page's bold table name. */
	function documentedColumns(page: string, tableTitle: string): Array<{ name: string; type: string }> {
		const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
		const start = text.indexOf(`**${tableTitle}**`);
		expect(start).toBeGreaterThanOrEqual(0);
		const lines = text.slice(start).split('\n');
		const header = lines.findIndex((line) => line.startsWith('| Column |'));
		const rows: Array<{ name: string; type: string }> = [];
		for (const line of lines.slice(header + 2)) {
			const cells = /^\| `(\w+)` \| (\w+) \|/.exec(line);
			if (!cells) break;
			rows.push({ name: cells[1], type: cells[2] });
		}
		return rows;
	}

	it.each([
		['Rates table', 'RATES_COLUMNS'],
		['Changes table', 'CHANGES_COLUMNS'],
		['Positions table', 'POSITIONS_COLUMNS'],
		['History table', 'HISTORY_COLUMNS'],
		['Queue table', 'QUEUE_COLUMNS'],
	] as const)('%s: every column, its type, in the order the node creates them', async (title, constant) => {
		const tables = (await import('../../nodes/RateChanges/storage/tables')) as unknown as Record<string, ReadonlyArray<{ name: string; type: string }>>;
		expect(documentedColumns('docs/nodes/rate-changes-reference.md', title)).toEqual(tables[constant].map(({ name, type }) => ({ name, type })));
	});

	it('names exactly the scopes the node sends requests under, on both pages', async () => {
		const { DATA_TABLE_SCOPES } = await import('../../nodes/RateChanges/storage/dataTables');
		const page = prose('docs/nodes/rate-changes.md');
		const listed = [...page.matchAll(/`(dataTable(?:Row)?:\w+)`/g)].map((match) => match[1]);
		expect([...new Set(listed)].sort()).toEqual([...DATA_TABLE_SCOPES].sort());
		expect(page).toContain(`exactly these ${COUNT_WORDS[DATA_TABLE_SCOPES.length]}`);
	});
});

describe('the counts the pages give are the ones the code has', () => {
	const manifest = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } }).n8n;
	const sandbox = useSandbox();

	it("docs/e2e.md: the package e2e's nodes, tool variants and credential types", () => {
		const page = prose('docs/e2e.md');
		const tools = allNodes.filter((description) => description.usableAsTool).length;
		expect(page).toContain(
			`holds the ${COUNT_WORDS[manifest.nodes.length]} nodes under the package name, plus the AI-tool variants of the ${COUNT_WORDS[tools]} action nodes and nothing else; the ${COUNT_WORDS[manifest.credentials.length]} credential types are offered`,
		);
	});

	it('docs/e2e.md: the steps npm start prints', () => {
		const inbox = { slackUrl: (channel: string) => `http://127.0.0.1:5680/slack/${channel}` };
		const demo = {
			n8n: { runtime: { version: '2.41.1' }, baseUrl: 'http://127.0.0.1:5678', userFolder: '.demo/n8n-2.41.1' },
			sandbox,
			inbox: { url: 'http://127.0.0.1:5680' },
			access: { baseUrl: sandbox.baseUrl },
			examples: demoExamples(inbox),
			mcp: mcpExampleAccess('http://127.0.0.1:5678', 'token'),
			signedIn: true,
			dataTables: true,
			reRegistered: [],
		} as unknown as Demo;
		const steps = readyText(demo, 60_000)
			.split('\n')
			.filter((line) => /^ {2}\d+\. /.test(line));
		expect(prose('docs/e2e.md')).toContain(`what to try first, in ${COUNT_WORDS[steps.length]} steps`);
	});

	it("CHANGELOG.md: the data tables Rate Changes keeps", async () => {
		const tables = Object.keys(await import('../../nodes/RateChanges/storage/tables')).filter((name) => name.endsWith('_COLUMNS'));
		expect(prose('CHANGELOG.md')).toContain(`Memory in ${COUNT_WORDS[tables.length]} of n8n's Data Tables`);
	});
});
