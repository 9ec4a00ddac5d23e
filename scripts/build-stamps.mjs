// @ts-check
// Whether `npm start`'s two builds (the web app, the server bundle) are current: a hash of each
// one's inputs against the stamp its last build wrote. Plain JavaScript, typed through JSDoc, so
// that a start with nothing to build decides without loading a TypeScript loader (tsx took 0.28 s
// of each warm start on this 2-core machine, the hashing 0.04 s). build-web.ts and
// build-server.ts build with the same decisions.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

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

/** Bumped when the way the web build is made changes, so older stamps no longer match. */
export const WEB_RECIPE = 'vite build --mode production, NODE_ENV=production, v1';

/** What the server bundle is made of; packages stay outside it and load from node_modules. */
export const SERVER_INPUTS = ['src/server', 'src/contract', 'package-lock.json', 'tsconfig.json', 'scripts/build-server.ts'];

/** Bumped when the way the server bundle is made changes. */
export const SERVER_RECIPE = 'esbuild src/server/main.ts, esm, node20, packages external, import.meta.url of the source, v1';

/** @typedef {{ hash: string; index: string }} Stamp */
/** @typedef {{ build: boolean; reason: string }} Decision */
/** @typedef {Record<string, string | undefined>} Env */

/** @param {string | Buffer} data */
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * The stamp, written after a successful build beside its directory (dist/web.build-stamp.json),
 * outside what the server serves. It records the index.html it made, so a build made since by
 * other means (a plain `vite build`) no longer matches it.
 * @param {string} outDir
 */
export function stampPath(outDir) {
  return `${outDir.replace(/\/+$/, '')}.build-stamp.json`;
}

/**
 * The content hash of a file, or null when it does not exist.
 * @param {string} file
 * @returns {string | null}
 */
export function fileHash(file) {
  return existsSync(file) ? sha256(readFileSync(file)) : null;
}

/**
 * The content hash of the build's index.html, or null when there is no build.
 * @param {string} outDir
 */
export function indexHash(outDir) {
  return fileHash(join(outDir, 'index.html'));
}

/**
 * Test files do not reach a build, so editing them does not call for one.
 * @param {string} path
 */
const isTestFile = (path) => /\.test\.tsx?$/.test(path);

/**
 * Every file under an entry (a file or a directory), relative to root, test files left out.
 * @param {string} root
 * @param {string} entry
 * @returns {string[]}
 */
export function listFiles(root, entry) {
  const full = join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)))
    .filter((p) => !isTestFile(p));
}

/**
 * One hash over a recipe and the path and content of every file under the inputs (tests left out).
 * @param {string} root
 * @param {readonly string[]} inputs
 * @param {string} recipe
 */
export function hashInputs(root, inputs, recipe) {
  const hash = createHash('sha256').update(recipe);
  const files = inputs.flatMap((entry) => listFiles(root, entry)).sort();
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  return hash;
}

/**
 * One hash over the path and content of every web input, the build recipe and any VITE_ variables.
 * @param {string} root
 * @param {Env} [env]
 * @param {readonly string[]} [inputs]
 */
export function hashWebInputs(root, env = process.env, inputs = WEB_INPUTS) {
  const hash = hashInputs(root, inputs, WEB_RECIPE);
  // Vite inlines VITE_ variables into the bundle: a different value is a different build.
  for (const key of Object.keys(env).filter((k) => k.startsWith('VITE_')).sort()) hash.update(`\0${key}=${env[key]}`);
  return hash.digest('hex');
}

/**
 * The directory the web build writes to: WEB_DIR, as vite.config.ts reads it, else dist/web.
 * @param {string} root
 * @param {Env} [env]
 */
export function webOutDir(root, env = process.env) {
  return env.WEB_DIR ? resolve(env.WEB_DIR) : join(root, 'dist/web');
}

/**
 * The server bundle and its stamp, under dist/server.
 * @param {string} root
 */
export function serverPaths(root) {
  const dir = join(root, 'dist/server');
  return { dir, bundle: join(dir, 'main.mjs'), stamp: join(dir, 'build-stamp.json') };
}

/**
 * What the last successful build recorded in the stamp file, or null.
 * @param {string} file
 * @returns {Stamp | null}
 */
export function readStamp(file) {
  try {
    /** @type {Partial<Stamp>} */
    const stamp = JSON.parse(readFileSync(file, 'utf8'));
    return typeof stamp.hash === 'string' && typeof stamp.index === 'string' ? { hash: stamp.hash, index: stamp.index } : null;
  } catch {
    return null;
  }
}

/**
 * Whether to build, and why, in words for the log.
 * @param {{ hash: string; stamp: Stamp | null; index: string | null; force: boolean }} opts
 * @returns {Decision}
 */
export function buildDecision(opts) {
  if (opts.force) return { build: true, reason: 'forced' };
  if (opts.index === null) return { build: true, reason: 'no build yet' };
  if (opts.stamp === null) return { build: true, reason: 'no stamp from an earlier build' };
  if (opts.stamp.index !== opts.index) return { build: true, reason: 'the build was replaced since it was stamped' };
  if (opts.stamp.hash !== opts.hash) return { build: true, reason: 'the sources changed since the last build' };
  return { build: false, reason: 'the sources are unchanged since the last build' };
}

/**
 * The web build's decision, with the hash a new build's stamp records.
 * @param {string} root
 * @param {{ force?: boolean; env?: Env }} [opts]
 */
export function webDecision(root, opts = {}) {
  const env = opts.env ?? process.env;
  const outDir = webOutDir(root, env);
  const hash = hashWebInputs(root, env);
  return { outDir, hash, ...buildDecision({ hash, stamp: readStamp(stampPath(outDir)), index: indexHash(outDir), force: opts.force ?? false }) };
}

/**
 * The server bundle's decision, with the hash a new bundle's stamp records.
 * @param {string} root
 * @param {{ force?: boolean }} [opts]
 */
export function serverDecision(root, opts = {}) {
  const paths = serverPaths(root);
  const hash = hashInputs(root, SERVER_INPUTS, SERVER_RECIPE).digest('hex');
  return { paths, hash, ...buildDecision({ hash, stamp: readStamp(paths.stamp), index: fileHash(paths.bundle), force: opts.force ?? false }) };
}
