import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The house rule of docs/development.md: a node folder holds what only that node uses, and what a
 * second node needs moves to nodes/shared/; nodes/shared/ imports no node. Read from the source's
 * import and export lines, so a type-only import counts too.
 */

const NODES = path.resolve(__dirname, '../../nodes');

function sourcesOf(dir: string): string[] {
	return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((file) => file.endsWith('.ts')).map((file) => path.join(dir, file));
}

/** The node folder a file of nodes/ is in ('shared' for nodes/shared/), or undefined outside nodes/. */
function folderOf(file: string): string | undefined {
	const relative = path.relative(NODES, file);
	return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
}

/** Every relative module a file imports or re-exports, resolved against the file. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/g), ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]);
	return specifiers.filter((specifier) => specifier.startsWith('.')).map((specifier) => path.resolve(path.dirname(file), specifier));
}

describe('no node folder imports another', () => {
	const crossings = sourcesOf(NODES).flatMap((file) => {
		const from = folderOf(file);
		return importsOf(file)
			.filter((target) => {
				const to = folderOf(target);
				return to !== undefined && to !== from && to !== 'shared';
			})
			.map((target) => `${path.relative(NODES, file)} imports ${path.relative(NODES, target)}`);
	});

	it('imports only its own files and nodes/shared/, and nodes/shared/ imports no node', () => {
		expect(crossings).toEqual([]);
	});

	it('reads every import of the node folders (the check sees the imports it is about)', () => {
		const calendarFacts = importsOf(path.join(NODES, 'RateChanges/actions/calendarFacts.ts')).map((target) => path.relative(NODES, target));
		expect(calendarFacts).toEqual(expect.arrayContaining([path.join('shared', 'events'), path.join('shared', 'demand'), path.join('RateChanges', 'actions', 'calendarRates')]));
	});
});
