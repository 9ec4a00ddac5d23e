// `npm run check`: the typecheck and the lint, side by side (each keeps one core busy for about
// half a minute here; one after the other took 69 s). Both remember what they checked in
// node_modules/.cache/townbeat, so a second run rechecks only what changed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = 'node_modules/.cache/townbeat';
const bin = (name) => `node_modules/.bin/${name}`;

function run(label, command, args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ label, code: 1, output: `${output}${err.message}\n`, seconds: 0 }));
    child.on('close', (code) => resolve({ label, code: code ?? 1, output, seconds: (performance.now() - started) / 1000 }));
  });
}

const results = await Promise.all([
  run('tsc', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', `${cache}/tsc.tsbuildinfo`]),
  run('eslint', bin('eslint'), ['--cache', '--cache-location', `${cache}/eslint/`, '.']),
]);
for (const r of results) {
  if (r.output.trim()) process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  console.log(`${r.label}: ${r.code === 0 ? 'clean' : `failed (exit ${r.code})`} in ${r.seconds.toFixed(1)} s`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
