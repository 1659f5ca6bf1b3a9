const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also needs each node's icons and codex file beside it.
function copyAssets() {
	return src(['nodes/**/*.{png,svg,node.json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyAssets;
