// @ts-check
// `npm start`'s prestart, in one process: the web build and the server bundle, each made only
// when its sources changed since the last one. Deciding needs no TypeScript (build-stamps.mjs),
// so a warm start loads no loader; only a build registers tsx and runs the TypeScript builders.
import { fileURLToPath } from 'node:url';
import { serverDecision, webDecision } from './build-stamps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

try {
  const web = webDecision(root);
  const server = serverDecision(root);
  if (!web.build && !server.build) {
    console.log(`web build in ${web.outDir} is current: ${web.reason}`);
    console.log(`server bundle ${server.paths.bundle} is current: ${server.reason}`);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    const { buildWeb } = await import('./build-web.ts');
    const { buildServer } = await import('./build-server.ts');
    await buildWeb();
    await buildServer();
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
