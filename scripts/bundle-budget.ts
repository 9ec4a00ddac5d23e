// Fails when the landing page's initial JavaScript is over budget (issue 18): 130 KiB gzip,
// 1 KiB = 1024 bytes. Reads a finished build (`npm run build` runs first in `npm test`).
//
//   node --import tsx scripts/bundle-budget.ts [dir]
//
// dir defaults to the build directory vite.config.ts uses: WEB_DIR when set, else dist/web.
// Counted: index.html's module script, its static imports (the modulepreloads), and the landing
// route's lazy chunk with its static imports, each gzipped at level 9 (src/web/build/bundle-budget.ts).

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checkBudget, formatBudget, landingInitialFiles, type Manifest } from '../src/web/build/bundle-budget.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = resolve(process.argv[2] ?? process.env.WEB_DIR ?? join(root, 'dist/web'));
const manifestPath = join(dir, '.vite/manifest.json');

if (!existsSync(join(dir, 'index.html')) || !existsSync(manifestPath)) {
  console.error(`bundle-budget: no build with a manifest in ${dir}; run \`npm run build\` first (vite.config.ts sets build.manifest)`);
  process.exit(2);
}

let files: string[];
try {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  files = landingInitialFiles(html, manifest);
} catch (err) {
  console.error(`bundle-budget: ${(err as Error).message}`);
  process.exit(2);
}

const result = checkBudget(
  files.map((file) => {
    const bytes = readFileSync(join(dir, file));
    return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  }),
);
console.log(`Landing page (/ signed out) initial JavaScript, build in ${dir}`);
console.log(formatBudget(result));
if (result.over) process.exit(1);
