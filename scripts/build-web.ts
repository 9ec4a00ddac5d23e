// Builds the web app for `npm start` only when its inputs changed since the last build, and always
// as a production build: React's development bundle must never be served, whatever NODE_ENV says.
//   node --import tsx scripts/build-web.ts [--force]
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Everything `vite build` reads, relative to the repository root; missing entries are skipped. */
export const WEB_INPUTS = [
  'src/web',
  'src/contract',
  'public',
  'vite.config.ts',
  'tsconfig.json',
  'package-lock.json',
  'tailwind.config.ts',
  'tailwind.config.js',
  'postcss.config.js',
  'postcss.config.mjs',
];

/** Bumped when the way the build is made changes, so older stamps no longer match. */
const RECIPE = 'vite build --mode production, NODE_ENV=production, v1';

/**
 * Strings only React's development build contains, checked in every built script. React 19 no
 * longer prefixes its warnings with "Warning: ", so these are its own messages.
 */
export const REACT_DEV_MARKERS = ['Each child in a list should have a unique', 'In HTML, %s cannot be a child', 'react-dom.development'];

/**
 * The stamp, written after a successful build beside its directory (dist/web.build-stamp.json),
 * outside what the server serves. It records the index.html it made, so a build made since by
 * other means (a plain `vite build`) no longer matches it.
 */
export function stampPath(outDir: string): string {
  return `${outDir.replace(/\/+$/, '')}.build-stamp.json`;
}

export interface Stamp {
  hash: string;
  index: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The content hash of the build's index.html, or null when there is no build. */
export function indexHash(outDir: string): string | null {
  const file = join(outDir, 'index.html');
  return existsSync(file) ? sha256(readFileSync(file)) : null;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Test files do not reach the bundle, so editing them does not call for a build. */
const isTestFile = (path: string) => /\.test\.tsx?$/.test(path);

function listFiles(root: string, entry: string): string[] {
  const full = join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)))
    .filter((p) => !isTestFile(p));
}

/** One hash over a recipe and the path and content of every file under the inputs (tests left out). */
export function hashInputs(root: string, inputs: string[], recipe: string) {
  const hash = createHash('sha256').update(recipe);
  const files = inputs.flatMap((entry) => listFiles(root, entry)).sort();
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash;
}

/** One hash over the path and content of every web input, the build recipe and any VITE_ variables. */
export function hashWebInputs(root: string, env: Record<string, string | undefined> = process.env, inputs = WEB_INPUTS): string {
  const hash = hashInputs(root, inputs, RECIPE);
  // Vite inlines VITE_ variables into the bundle: a different value is a different build.
  for (const key of Object.keys(env).filter((k) => k.startsWith('VITE_')).sort()) hash.update(`\0${key}=${env[key]}`);
  return hash.digest('hex');
}

/** The directory the build writes to: WEB_DIR, as vite.config.ts reads it, else dist/web. */
export function webOutDir(root: string, env: Record<string, string | undefined> = process.env): string {
  return env.WEB_DIR ? resolve(env.WEB_DIR) : join(root, 'dist/web');
}

/** What the last successful build recorded in the stamp file, or null. */
export function readStamp(file: string): Stamp | null {
  try {
    const stamp = JSON.parse(readFileSync(file, 'utf8')) as Partial<Stamp>;
    return typeof stamp.hash === 'string' && typeof stamp.index === 'string' ? { hash: stamp.hash, index: stamp.index } : null;
  } catch {
    return null;
  }
}

/** Whether to build, and why, in words for the log. */
export function buildDecision(opts: { hash: string; stamp: Stamp | null; index: string | null; force: boolean }): { build: boolean; reason: string } {
  if (opts.force) return { build: true, reason: 'forced' };
  if (opts.index === null) return { build: true, reason: 'no build yet' };
  if (opts.stamp === null) return { build: true, reason: 'no stamp from an earlier build' };
  if (opts.stamp.index !== opts.index) return { build: true, reason: 'the build was replaced since it was stamped' };
  if (opts.stamp.hash !== opts.hash) return { build: true, reason: 'the sources changed since the last build' };
  return { build: false, reason: 'the sources are unchanged since the last build' };
}

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
  const outDir = webOutDir(root);
  const hash = hashWebInputs(root);
  const decision = buildDecision({ hash, stamp: readStamp(stampPath(outDir)), index: indexHash(outDir), force: opts.force ?? false });
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
