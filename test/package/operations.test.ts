import * as fs from 'node:fs';
import * as path from 'node:path';

import type { IDisplayOptions, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { OPERATIONS, operationField } from '../../nodes/RateChanges/actions/router';
import { loadPackage } from '../harness';

/**
 * A new operation of Rate Changes is its file and one entry in actions/router.ts; everything else
 * that names the operations follows from the router, and what cannot (its test, its schemas, its
 * docs) is checked here against it (docs/development.md, "Map of the code").
 */

const ROOT = path.resolve(__dirname, '../..');
const NODE = path.join(ROOT, 'nodes/RateChanges');
const SCHEMAS = path.join(NODE, '__schema__/v1.0.0');

let description: INodeTypeDescription;

beforeAll(async () => {
	const loader = await loadPackage();
	description = (loader.getNode('travelPricingRateChanges').type as INodeType).description;
});

const nameOf = (operation: string): string => operationField.options!.find((option) => 'value' in option && option.value === operation)!.name;

/** The operations a displayOptions names, to show or to hide. */
function operationsIn(options: IDisplayOptions | undefined): string[] {
	return [...(options?.show?.operation ?? []), ...(options?.hide?.operation ?? [])].map(String);
}

/** Every operation the fields' displayOptions name, with the fields inside collections. */
function operationsShownFor(properties: INodeProperties[]): string[] {
	return properties.flatMap((field) => [
		...operationsIn(field.displayOptions),
		...(field.options ?? []).flatMap((option) => ('displayName' in option && 'type' in option ? operationsShownFor([option as INodeProperties]) : [])),
	]);
}

describe('what the node offers follows the router', () => {
	it('offers in its Operation field exactly the operations the router lists', () => {
		const offered = description.properties.find((field) => field.name === 'operation')!.options!.map((option) => ('value' in option ? option.value : undefined));
		expect([...offered].sort()).toEqual([...OPERATIONS].sort());
	});

	it("names every operation in the subtitle under the node, and the operation's name", () => {
		for (const operation of OPERATIONS) expect(description.subtitle).toContain(`"${operation}":"${nameOf(operation).charAt(0)}`);
	});

	it('shows or hides fields and credentials only for operations the router lists', () => {
		const named = [...operationsShownFor(description.properties), ...(description.credentials ?? []).flatMap((credential) => operationsIn(credential.displayOptions))];
		expect([...new Set(named)].filter((operation) => !(OPERATIONS as string[]).includes(operation))).toEqual([]);
	});
});

describe.each(OPERATIONS)('%s has everything an operation needs', (operation) => {
	it(`its file, actions/${operation}.operation.ts`, () => {
		expect(fs.existsSync(path.join(NODE, 'actions', `${operation}.operation.ts`))).toBe(true);
	});

	it(`its engine test, test/rate-changes/${operation}.engine.test.ts`, () => {
		expect(fs.existsSync(path.join(ROOT, 'test/rate-changes', `${operation}.engine.test.ts`))).toBe(true);
	});

	it(`its output schema, __schema__/v1.0.0/${operation}.json (npm run schemas writes it from its case in platform/engine/outputSchemas.ts)`, () => {
		expect(fs.existsSync(path.join(SCHEMAS, `${operation}.json`))).toBe(true);
	});

	it('its row in the Operations table and its section on docs/nodes/rate-changes.md', () => {
		const page = fs.readFileSync(path.join(ROOT, 'docs/nodes/rate-changes.md'), 'utf8');
		expect(page).toContain(`\n| **${nameOf(operation)}** |`);
		expect(page).toContain(`\n### ${nameOf(operation)}\n`);
	});
});

describe('nothing is left of an operation the router no longer lists', () => {
	it('ships no schema, no operation file and no section for it', () => {
		const schemas = fs.readdirSync(SCHEMAS).map((file) => file.replace(/\.json$/, ''));
		const files = fs.readdirSync(path.join(NODE, 'actions')).filter((file) => file.endsWith('.operation.ts')).map((file) => file.replace(/\.operation\.ts$/, ''));
		expect({ schemas: [...schemas].sort(), files: [...files].sort() }).toEqual({ schemas: [...OPERATIONS].sort(), files: [...OPERATIONS].sort() });
		const page = fs.readFileSync(path.join(ROOT, 'docs/nodes/rate-changes.md'), 'utf8');
		const table = page.slice(page.indexOf('## Operations'), page.indexOf('### '));
		const rows = [...table.matchAll(/^\| \*\*([^*]+)\*\* \|/gm)].map((match) => match[1]);
		expect([...rows].sort()).toEqual(OPERATIONS.map(nameOf).sort());
	});
});
