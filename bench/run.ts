// Runs every bench/*.bench.ts in turn; each prints its own figures.
//   npm run bench [-- NAME [OPTIONS...]]: only the benchmarks whose file name contains NAME, given OPTIONS.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const options = process.argv.slice(3);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
if (files.length === 0) console.log('No benchmarks yet.');
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f} ==`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`, ...options], { stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
