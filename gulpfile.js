const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also needs each node's icons, codex file and output schemas
// (__schema__, for the editor's schema preview) beside it.
function copyAssets() {
	return src(['nodes/**/*.{png,svg,node.json}', 'nodes/*/__schema__/**/*.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyAssets;
