import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One line of a benchmark's table: the same measure on both sides, their ratio and the target. */
export interface Row {
	measure: string;
	unit: string;
	/** This package's side: a number in `unit`, or what happened in words. */
	package: number | string | null;
	/** n8n's built-in nodes: a number in `unit`, or what happened in words (failed with 429, say). */
	builtIn: number | string | null;
	/** How many times better the package is (greater is better), when both sides are numbers. */
	ratio: number | null;
	target: string;
	/** null: no target on this line. */
	met: boolean | null;
}

export interface BenchmarkResult {
	id: string;
	title: string;
	/** What is measured and how, in a sentence or two. */
	setup: string;
	packageSide: string;
	builtInSide: string;
	rows: Row[];
	/** What bounds a missed target, and anything else a reader needs to read the table. */
	notes: string[];
	/** Set when a round lost records or errored: the benchmark failed and its numbers do not count. */
	failure?: string;
	/** Every round's measurements. */
	rounds: unknown;
	/** Headings of the two value columns, where they are not this package against built-in nodes. */
	columns?: { package: string; builtIn: string };
}

export interface Machine {
	cpus: number;
	cpuModel: string;
	memoryGb: number;
	os: string;
	n8nVersion: string;
	n8nNode: string;
	benchNode: string;
	/** One-minute load average when the run began: above the core count, other work was competing. */
	loadAverageAtStart?: number;
	/** The same when the results were last written (the end of a whole run). */
	loadAverageAtEnd?: number;
}

export interface Results {
	startedAt: string;
	durationSeconds: number;
	rounds: number;
	machine: Machine;
	benchmarks: BenchmarkResult[];
}

export function machine(n8nVersion: string, n8nNode: string): Machine {
	return {
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
		memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()}`,
		n8nVersion,
		n8nNode,
		benchNode: process.version,
	};
}

function formatValue(value: number | string | null, unit: string): string {
	if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return '–';
	if (typeof value === 'string') return value;
	const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
	return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${unit ? ` ${unit}` : ''}`;
}

function formatRatio(ratio: number | null): string {
	return ratio === null || !Number.isFinite(ratio) ? '–' : `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;
}

function formatMet(met: boolean | null): string {
	if (met === null) return '';
	return met ? '✅ met' : '❌ **missed**';
}

function loadLine(when: string, load: number | undefined, cpus: number): string[] {
	if (load === undefined) return [];
	return [`| Load average at ${when} | ${load}${load > cpus / 2 ? ' (other work was running: numbers are pessimistic)' : ''} |`];
}

export function toMarkdown(results: Results): string {
	const m = results.machine;
	const lines = [
		'# Benchmarks',
		'',
		'Written by `npm run bench` (bench/run.ts); how they are built and how to read them: [docs/benchmarks.md](../docs/benchmarks.md).',
		'The same numbers as JSON: [results.json](results.json).',
		'',
		`Run ${results.startedAt}, ${Math.round(results.durationSeconds / 60)} min in all, ${results.rounds} measured rounds per side after a warm-up round, medians shown.`,
		'',
		'| Machine | |',
		'|---|---|',
		`| CPU | ${m.cpus} cores (${m.cpuModel}) |`,
		`| Memory | ${m.memoryGb} GB |`,
		`| OS | ${m.os} |`,
		`| n8n | ${m.n8nVersion} on Node.js ${m.n8nNode} |`,
		`| Bench runner | Node.js ${m.benchNode} |`,
		...loadLine('start', m.loadAverageAtStart, m.cpus),
		...loadLine('end', m.loadAverageAtEnd, m.cpus),
		'',
		'"Ratio" is how many times better this package is than the built-in nodes (above 1 = better).',
		'',
	];
	for (const benchmark of results.benchmarks) {
		lines.push(`## ${benchmark.id}. ${benchmark.title}`, '', benchmark.setup, '');
		lines.push(`- **${benchmark.columns?.package ?? 'This package'}:** ${benchmark.packageSide}`, `- **${benchmark.columns?.builtIn ?? 'Built-in nodes'}:** ${benchmark.builtInSide}`, '');
		if (benchmark.failure) lines.push(`**FAILED:** ${benchmark.failure}`, '');
		const columns = benchmark.columns ?? { package: 'This package', builtIn: 'Built-in nodes' };
		lines.push(`| Measure | ${columns.package} | ${columns.builtIn} | Ratio | Target | |`, '|---|---:|---:|---:|---|---|');
		for (const row of benchmark.rows) {
			lines.push(
				`| ${row.measure} | ${formatValue(row.package, row.unit)} | ${formatValue(row.builtIn, row.unit)} | ${formatRatio(row.ratio)} | ${row.target || '–'} | ${formatMet(row.met)} |`,
			);
		}
		lines.push('');
		for (const note of benchmark.notes) lines.push(`- ${note}`);
		if (benchmark.notes.length > 0) lines.push('');
	}
	return `${lines.join('\n').trimEnd()}\n`;
}

export function writeResults(directory: string, results: Results): void {
	fs.writeFileSync(path.join(directory, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
	fs.writeFileSync(path.join(directory, 'results.md'), toMarkdown(results));
}

/**
 * The full run's results with the benchmarks of a partial run (BENCH_ONLY) in place of theirs:
 * each carries a note of the run it came from, since the header describes the full run.
 */
export function updatedResults(
	previous: Results | undefined,
	measured: BenchmarkResult[],
	run: { started: number; loadBefore: number; only: string[] },
): Results {
	if (!previous) throw new Error('BENCH_UPDATE needs the results.json of a full run to update');
	const note = `Measured in a run of its own (\`BENCH_ONLY=${run.only.join(',')}\`), started ${new Date(run.started).toISOString()}, load average ${(Math.round(run.loadBefore * 100) / 100).toString()} at its start.`;
	const fresh = measured.map((benchmark) => ({ ...benchmark, notes: [note, ...benchmark.notes] }));
	const kept = previous.benchmarks.filter((benchmark) => !fresh.some((entry) => entry.id === benchmark.id));
	return { ...previous, benchmarks: [...kept, ...fresh].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })) };
}
