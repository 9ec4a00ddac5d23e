import { randomBytes } from 'node:crypto';
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { log, onStopRequest, planWorkers, runPrimary } from './cluster.ts';
import { StartupError } from './errors.ts';
import { EnvError, parseEnv, type Env } from './env.ts';

/** In development a secret is generated once and kept beside the data. */
function sessionSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  mkdirSync(env.DATA_DIR, { recursive: true });
  const file = join(env.DATA_DIR, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function envOrExit(): Env {
  try {
    return parseEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** One serving process: the whole server, or one worker of the cluster (cluster.ts gives it its role). */
async function serve(env: Env) {
  // Loaded here, not at the top: a cluster's primary needs none of it, and the modules load while the database opens.
  const appModule = import('./app.ts');
  const { loadCity } = await import('./city.ts');
  const city = loadCity(env.CITY_CONFIG);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const { createOidcAdapter } = await import('./features/auth/oidc.ts');
  const oidc = env.OIDC_ISSUER_URL
    ? await createOidcAdapter({
        issuerUrl: env.OIDC_ISSUER_URL,
        clientId: env.OIDC_CLIENT_ID!,
        clientSecret: env.OIDC_CLIENT_SECRET!,
        redirectUri: new URL('/api/callback', publicUrl).toString(),
      })
    : null;
  // The database opens after the OpenID provider answered, so a bad provider fails fast.
  const { openDatabase } = await import('./db/client.ts');
  const [database, { buildApp }] = await Promise.all([openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, ...(env.RESTORE_FROM ? { restoreFrom: env.RESTORE_FROM } : {}) }), appModule]);
  const app = await buildApp({ env, database, city, sessionSecret: sessionSecret(env), oidc, ...(env.WEB_DIR ? { webDir: env.WEB_DIR } : {}), scheduler: env.RUN_SCHEDULER ? {} : false, queueClient: !env.RUN_SCHEDULER });
  if (env.SEED_DEMO) {
    const { seedDemoIfEmpty } = await import('./features/ingestion/demo/seed-demo.ts');
    const { seedFeatureDemos } = await import('./demo-content.ts');
    const seeded = await seedDemoIfEmpty({ sources: app.ingest.sources, ingestion: app.ingest.service });
    for (const s of seeded) app.log.info(s, 'demo source loaded');
    for (const s of await seedFeatureDemos(app)) app.log.info(s, 'demo content loaded');
  }

  const { default: closeWithGrace } = await import('close-with-grace');
  const { closeSharedSandbox } = await import('./features/ingestion/parse/sandbox.ts');
  let closing = false;
  const graceful = closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    closing = true;
    // A port another server holds is a sentence, not a stack.
    if ((err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE') app.log.error(`port ${env.PORT} is in use by another server: stop that one, or set PORT to a free port`);
    else if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await closeSharedSandbox();
    await database.close();
  });
  // After Ctrl-C the terminal's signal reaches this worker too: let it start the shutdown first,
  // for a second signal during shutdown would make close-with-grace exit at once.
  onStopRequest(() => {
    setTimeout(() => {
      if (!closing) graceful.close();
    }, 200).unref();
  });

  await app.listen({ port: env.PORT, host: env.HOST });
  await app.scheduler?.start();
  await app.backups?.start();
  const worker = cluster.isWorker ? { worker: process.env.TOWNBEAT_WORKER_ROLE ?? 'follower' } : {};
  app.log.info({ scheduler: Boolean(app.scheduler), ...worker }, `Townbeat is serving ${city.name} at ${publicUrl} on the ${database.kind} database`);
}

const env = envOrExit();
if (cluster.isPrimary) {
  const plan = planWorkers(env, availableParallelism());
  if (plan.note) log('warn', plan.note);
  if (plan.workers > 1) process.exit(await runPrimary({ workers: plan.workers, env }));
}
try {
  await serve(env);
} catch (err) {
  // Another process has the embedded database open, a backup cannot be restored: a sentence, not a stack.
  if (!(err instanceof StartupError)) throw err;
  console.error(err.message);
  process.exit(1);
}
