import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { NodeTypeDescriptionWithHint } from '../../nodes/shared/builderHint';
import {
	ACCESS_TOKEN_CREDENTIAL,
	ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME,
	AIRPORTS_CREDENTIAL,
	AIRPORTS_CREDENTIAL_DISPLAY_NAME,
	N8N_API_CREDENTIAL,
	N8N_API_CREDENTIAL_DISPLAY_NAME,
} from '../../nodes/shared/credentialNames';
import { loadPackage } from '../harness';

/** One surface across the eight nodes, the trigger included, read from the build the way n8n loads it. */

const ROOT = path.resolve(__dirname, '../..');
const DISPLAY_NAME_PREFIX = 'Travel Pricing ';

let allNodes: INodeTypeDescription[];

beforeAll(async () => {
	const loader = await loadPackage();
	allNodes = Object.values(loader.nodeTypes).map(({ type }) => (type as INodeType).description);
});

/** Every field of a node, with the fields inside its collections, and the path that leads to each. */
function fieldsOf(properties: INodeProperties[], parent = ''): Array<{ at: string; field: INodeProperties }> {
	return properties.flatMap((field) => {
		const at = `${parent}${field.displayName}`;
		const nested = (field.options ?? []).flatMap((option) => {
			if ('type' in option) return fieldsOf([option as INodeProperties], `${at} > `);
			if ('values' in option) return fieldsOf(option.values, `${at} > `);
			return [];
		});
		return [{ at, field }, ...nested];
	});
}

describe('default node names follow one rule: the node\'s name without the package prefix', () => {
	it('names each node on the canvas as the node panel does, without "Travel Pricing"', () => {
		for (const description of allNodes) {
			expect(description.displayName.startsWith(DISPLAY_NAME_PREFIX)).toBe(true);
			expect(description.defaults.name).toBe(description.displayName.slice(DISPLAY_NAME_PREFIX.length));
		}
	});

	it('uses the names the README\'s node table gives', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		for (const description of allNodes) {
			expect(readme).toContain(`| **${description.defaults.name}** (\`${description.name}\`) |`);
		}
	});
});

describe('the README says where the nodes are in n8n\'s node panel, and it is true', () => {
	// n8n's panel has folders only for nodes in its own Core Nodes, AI and Human in the Loop
	// categories (the editor's subcategorizeItems); every other node is listed as an app.
	const PANEL_FOLDER_CATEGORIES = ['Core Nodes', 'AI', 'HITL', 'Human in the Loop'];

	it('tells users to search for the prefix every node\'s panel name starts with', () => {
		const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		const searchTerm = /Type \*\*([^*]+)\*\* in the node panel's search/.exec(readme)?.[1];
		expect(searchTerm).toBe(DISPLAY_NAME_PREFIX.trim());

		expect(allNodes).toHaveLength(8);
		for (const description of allNodes) {
			expect(description.displayName.startsWith(`${searchTerm} `)).toBe(true);
			// An app, as the README says, and not in a folder of n8n's own nodes.
			expect(description.codex?.categories?.filter((category) => PANEL_FOLDER_CATEGORIES.includes(category))).toEqual([]);
		}
	});
});

describe('IDs are text fields that start empty, with an "e.g." example', () => {
	// The service's IDs are numbers; a digest's ID is a UUID the Rate Changes node made.
	const DIGEST_ID = 'Travel Pricing Rate Changes > Options > Send Again (Digest ID)';

	it('holds for every field named ... ID, in every node and collection', () => {
		const ids = allNodes.flatMap((description) =>
			fieldsOf(description.properties)
				.filter(({ field }) => / ID\)?$/.test(field.displayName))
				.map(({ at, field }) => ({ at: `${description.displayName} > ${at}`, type: field.type, default: field.default, placeholder: field.placeholder })),
		);
		expect(ids.map((id) => id.at)).toEqual(expect.arrayContaining([
			'Travel Pricing Schedule > Schedule ID',
			'Travel Pricing Schedule > Rate Shop ID',
			'Travel Pricing Shop Update > Shop ID',
			'Travel Pricing Hotel Demand > Demand ID',
			'Travel Pricing Event Impact > Filters > Event ID',
			DIGEST_ID,
		]));
		for (const id of ids) {
			const example = id.at === DIGEST_ID ? /^e\.g\. [0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/ : /^e\.g\. \d+$/;
			expect(id).toEqual({ at: id.at, type: 'string', default: '', placeholder: expect.stringMatching(example) });
		}
	});
});

describe('options and placeholders read the same in every node', () => {
	it('lists the fields of every collection in alphabetical order', () => {
		for (const description of allNodes) {
			for (const { at, field } of fieldsOf(description.properties)) {
				if (field.type !== 'collection') continue;
				const names = (field.options as INodeProperties[]).map((option) => option.displayName);
				expect({ at: `${description.displayName} > ${at}`, names }).toEqual({
					at: `${description.displayName} > ${at}`,
					names: [...names].sort((a, b) => a.localeCompare(b)),
				});
			}
		}
	});

	it('starts every example in a text field with "e.g."', () => {
		for (const description of allNodes) {
			for (const { at, field } of fieldsOf(description.properties)) {
				// A collection's placeholder is the label of its "Add ..." button, not an example.
				if (field.placeholder === undefined || ['collection', 'fixedCollection'].includes(field.type)) continue;
				expect({ at: `${description.displayName} > ${at}`, placeholder: field.placeholder }).toEqual({
					at: `${description.displayName} > ${at}`,
					placeholder: expect.stringMatching(/^e\.g\. /),
				});
			}
		}
	});
});

describe('credential names come from one constant', () => {
	it('gives the credential types the names the nodes ask for', async () => {
		const loader = await loadPackage();
		expect(loader.getCredential(ACCESS_TOKEN_CREDENTIAL).type.displayName).toBe(ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME);
		expect(loader.getCredential(AIRPORTS_CREDENTIAL).type.displayName).toBe(AIRPORTS_CREDENTIAL_DISPLAY_NAME);
		expect(loader.getCredential(N8N_API_CREDENTIAL).type.displayName).toBe(N8N_API_CREDENTIAL_DISPLAY_NAME);
		expect(Object.keys(loader.credentialTypes).sort()).toEqual([ACCESS_TOKEN_CREDENTIAL, AIRPORTS_CREDENTIAL, N8N_API_CREDENTIAL].sort());
		const asked = new Set(allNodes.flatMap((description) => (description.credentials ?? []).map((credential) => credential.name)));
		expect(asked).toEqual(new Set([ACCESS_TOKEN_CREDENTIAL, AIRPORTS_CREDENTIAL, N8N_API_CREDENTIAL]));
	});

	it('spells each name only in nodes/shared/credentialNames.ts', () => {
		const sources = ['nodes', 'credentials'].flatMap((dir) =>
			(fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
				.filter((file) => file.endsWith('.ts'))
				.map((file) => path.join(dir, file)),
		);
		const names = [
			ACCESS_TOKEN_CREDENTIAL,
			AIRPORTS_CREDENTIAL,
			N8N_API_CREDENTIAL,
			ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME,
			AIRPORTS_CREDENTIAL_DISPLAY_NAME,
			N8N_API_CREDENTIAL_DISPLAY_NAME,
		];
		const spelled = sources
			.filter((file) => file !== path.join('nodes', 'shared', 'credentialNames.ts'))
			.flatMap((file) => {
				const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
				return names.filter((name) => text.includes(`'${name}'`)).map((name) => `${file}: '${name}'`);
			});
		expect(spelled).toEqual([]);
	});
});

describe("no field is hidden by n8n's panel because a credential's display depends on it", () => {
	// n8n's editor (ParameterInputList, isAuthRelatedParameter) treats the fields named in a
	// credential's displayOptions as authentication fields, and hides from the panel every field that
	// an authentication field's own displayOptions name: a user could not pick it any more.
	it('shows every field a user sets, Rate Changes\' Operation included', () => {
		const hidden = allNodes.flatMap((description) => {
			const authNames = new Set((description.credentials ?? []).flatMap((credential) => Object.keys(credential.displayOptions?.show ?? {})));
			const authFields = description.properties.filter((field) => authNames.has(field.name));
			const dependedOn = new Set(authFields.flatMap((field) => Object.keys(field.displayOptions?.show ?? {})));
			return description.properties.filter((field) => dependedOn.has(field.name)).map((field) => `${description.displayName}: ${field.displayName}`);
		});
		expect(hidden).toEqual([]);
	});
});

describe("builderHint: what n8n's AI Workflow Builder reads to pick a node", () => {
	const hinted = () =>
		allNodes.filter((description): description is NodeTypeDescriptionWithHint => 'builderHint' in description);

	it('is given by every node that calls the service or starts a workflow', () => {
		expect(hinted().map((description) => description.defaults.name)).toEqual(
			expect.arrayContaining(['Hotel Info', 'Schedule', 'Event Impact', 'Airports', 'Hotel Demand', 'Shop Update', 'Rate Record Trigger']),
		);
	});

	it('names each credential the node asks for, and relates it only to nodes of this package that exist', async () => {
		const loader = await loadPackage();
		const packageNodeTypes = new Set(allNodes.map((description) => `n8n-nodes-travel-pricing.${description.name}`));
		for (const description of hinted()) {
			for (const credential of description.credentials ?? []) {
				expect(description.builderHint.searchHint).toContain(loader.getCredential(credential.name).type.displayName);
			}
			const ours = (description.builderHint.relatedNodes ?? [])
				.map((related) => related.nodeType)
				.filter((nodeType) => nodeType.startsWith('n8n-nodes-travel-pricing.'));
			expect(ours.filter((nodeType) => !packageNodeTypes.has(nodeType))).toEqual([]);
		}
	});
});
