import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { loadCity } from './city.ts';
import { openDatabase } from './db/client.ts';
import { EnvError, parseEnv, type Env } from './env.ts';
import { createOidcAdapter } from './features/auth/oidc.ts';
import { seedDemoIfEmpty } from './features/ingestion/demo/seed-demo.ts';
import { seedFeatureDemos } from './demo-content.ts';
import { closeSharedSandbox } from './features/ingestion/parse/sandbox.ts';

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

async function main() {
  let env: Env;
  try {
    env = parseEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const city = loadCity(env.CITY_CONFIG);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const oidc = env.OIDC_ISSUER_URL
    ? await createOidcAdapter({
        issuerUrl: env.OIDC_ISSUER_URL,
        clientId: env.OIDC_CLIENT_ID!,
        clientSecret: env.OIDC_CLIENT_SECRET!,
        redirectUri: new URL('/api/callback', publicUrl).toString(),
      })
    : null;
  // The database opens after the OpenID provider answered, so a bad provider fails fast.
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const app = await buildApp({ env, database, city, sessionSecret: sessionSecret(env), oidc, ...(env.WEB_DIR ? { webDir: env.WEB_DIR } : {}), scheduler: env.RUN_SCHEDULER ? {} : false });
  if (env.SEED_DEMO) {
    const seeded = await seedDemoIfEmpty({ sources: app.ingest.sources, ingestion: app.ingest.service });
    for (const s of seeded) app.log.info(s, 'demo source loaded');
    for (const s of await seedFeatureDemos(app)) app.log.info(s, 'demo content loaded');
  }

  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await closeSharedSandbox();
    await database.close();
  });

  await app.listen({ port: env.PORT, host: env.HOST });
  await app.scheduler?.start();
  app.log.info(`Townbeat is serving ${city.name} at ${publicUrl} on the ${database.kind} database`);
}

await main();
