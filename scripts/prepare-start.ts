// `npm start`'s prestart, in one process: the web build and the server bundle, each made only
// when its sources changed since the last one.
import { buildServer } from './build-server.ts';
import { buildWeb } from './build-web.ts';

try {
  await buildWeb();
  await buildServer();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
