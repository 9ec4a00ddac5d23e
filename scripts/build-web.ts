// Builds the web app for `npm start` only when its inputs changed since the last build, and always
// as a production build: React's development bundle must never be served, whatever NODE_ENV says.
//   node --import tsx scripts/build-web.ts [--force]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { indexHash, listFiles, stampPath, webDecision, type Stamp } from './build-stamps.mjs';

/**
 * Strings only React's development build contains, checked in every built script. React 19 no
 * longer prefixes its warnings with "Warning: ", so these are its own messages.
 */
export const REACT_DEV_MARKERS = ['Each child in a list should have a unique', 'In HTML, %s cannot be a child', 'react-dom.development'];

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Built scripts that contain React development-build strings (empty for a production build). */
export function devBuildFiles(outDir: string): string[] {
  return listFiles(outDir, '.')
    .filter((f) => f.endsWith('.js'))
    .filter((f) => {
      const text = readFileSync(join(outDir, f), 'utf8');
      return REACT_DEV_MARKERS.some((m) => text.includes(m));
    });
}

/** Builds (when needed) and stamps; throws when the result is not a production build. */
export async function buildWeb(opts: { root?: string; force?: boolean; log?: (line: string) => void } = {}) {
  const root = opts.root ?? repoRoot;
  const log = opts.log ?? ((line: string) => console.log(line));
  const decision = webDecision(root, { force: opts.force ?? false });
  const { outDir, hash } = decision;
  if (!decision.build) {
    log(`web build in ${outDir} is current: ${decision.reason}`);
    return { built: false, outDir, hash };
  }
  log(`building the web app into ${outDir}: ${decision.reason}`);
  // Vite picks React's bundle from NODE_ENV; a development value in the shell must not leak in.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ root: join(root, 'src/web'), configFile: join(root, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  const dev = devBuildFiles(outDir);
  if (dev.length > 0) throw new Error(`the build contains React's development bundle (${dev.join(', ')}); not stamping it`);
  const stamp: Stamp & { builtAt: string } = { hash, index: indexHash(outDir) ?? '', builtAt: new Date().toISOString() };
  writeFileSync(stampPath(outDir), `${JSON.stringify(stamp)}\n`);
  return { built: true, outDir, hash };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    await buildWeb({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
