// Bundles the server into dist/server/main.mjs for `npm start`, only when its sources changed:
// loading some 200 TypeScript modules through tsx's loader took over a second of each start.
//   node --import tsx scripts/build-server.ts [--force]
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { fileHash, serverDecision } from './build-stamps.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Modules find their files (migrations, the classifier's model, demo feeds, workers) relative to
 * `import.meta.url`: each keeps its own source file's URL inside the bundle, so those still resolve.
 */
export const sourceUrlPlugin: Plugin = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: args.path.endsWith('x') ? 'tsx' : 'ts',
    }));
  },
};

/** Bundles the server (when needed) and stamps the result. */
export async function buildServer(opts: { root?: string; force?: boolean; log?: (line: string) => void } = {}) {
  const root = opts.root ?? repoRoot;
  const log = opts.log ?? ((line: string) => console.log(line));
  const decision = serverDecision(root, { force: opts.force ?? false });
  const { paths, hash } = decision;
  if (!decision.build) {
    log(`server bundle ${paths.bundle} is current: ${decision.reason}`);
    return { built: false, bundle: paths.bundle };
  }
  log(`bundling the server into ${paths.bundle}: ${decision.reason}`);
  mkdirSync(paths.dir, { recursive: true });
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, 'src/server/main.ts')],
    outfile: paths.bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Beside the bundle for debugging (`node --enable-source-maps dist/server/main.mjs`); `npm start`
    // runs without it: Node parses the 1.8 MB map at every start, 0.35 s of a warm start here.
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceUrlPlugin],
  });
  writeFileSync(paths.stamp, `${JSON.stringify({ hash, index: fileHash(paths.bundle), builtAt: new Date().toISOString() })}\n`);
  return { built: true, bundle: paths.bundle };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    await buildServer({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
