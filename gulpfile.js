// Copies what tsc does not: the node and credential icons, and the node's codex (.node.json),
// next to the compiled JavaScript, where n8n looks for them.
const path = require('path');
const { task, src, dest } = require('gulp');

function copyAssets(done) {
	// Both copies must finish before the task reports done, or `npm pack` may miss an icon.
	let pending = 2;
	const finish = () => {
		pending -= 1;
		if (pending === 0) done();
	};
	src('nodes/**/*.{png,svg,json}', { encoding: false })
		.pipe(dest(path.resolve('dist', 'nodes')))
		.on('finish', finish);
	src('credentials/**/*.{png,svg}', { encoding: false, allowEmpty: true })
		.pipe(dest(path.resolve('dist', 'credentials')))
		.on('finish', finish);
}

task('build:icons', copyAssets);
