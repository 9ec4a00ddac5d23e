import { createHmac, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../app.ts';
import { PORTLAND } from '../city.ts';
import { createManualClock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { parseEnv } from '../env.ts';
import { createSafeFetch } from '../features/ingestion/fetch/safe-fetch.ts';
import { openTestDatabase } from './test-db.ts';

/** The session secret of every test app. */
const TEST_SESSION_SECRET = 'test-secret-test-secret-test-secret-0123';
/** The key a test app signs QR codes with, derived from its session secret as buildApp does. */
export const TEST_QR_KEY = createHmac('sha256', TEST_SESSION_SECRET).update('qr').digest();

export const TEST_ORIGIN = 'http://localhost:80';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ReturnType<typeof createManualClock>;
  close(): Promise<void>;
}

/** The real app on the test file's own database, with a manual clock and no web build. */
export async function buildTestApp(
  overrides: Partial<Omit<AppDeps, 'env'>> & { env?: Record<string, string> } = {},
): Promise<TestApp> {
  const database = overrides.database ?? (await openTestDatabase());
  const clock = createManualClock(new Date());
  const fetch = overrides.fetch ?? createSafeFetch({ allowPrivate: true });
  // Backups taken in a test go to a directory of its own (made only when one is written).
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', BACKUP_DIR: join(tmpdir(), `townbeat-test-backups-${randomBytes(6).toString('hex')}`), ...overrides.env });
  const app = await buildApp({
    city: PORTLAND,
    sessionSecret: TEST_SESSION_SECRET,
    clock,
    webDir: null,
    logger: false,
    fetch,
    scheduler: false,
    ...overrides,
    env,
    database,
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** The session cookie a response set, as a Cookie header value. */
export function sessionCookieFrom(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'tb_session');
  if (!c) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `tb_session=${c.value}`;
}

let seq = 0;
/** Signs up a fresh user and returns its cookie and id. */
export async function signupUser(app: FastifyInstance, fields: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {}) {
  seq += 1;
  const body = {
    email: `user${seq}-${Date.now()}@example.org`,
    password: 'correct horse battery',
    firstName: 'Test',
    lastName: `User${seq}`,
    ...fields,
  };
  const res = await app.inject({ method: 'POST', url: '/api/auth/signup', headers: { origin: TEST_ORIGIN }, payload: body });
  if (res.statusCode !== 201) throw new Error(`signup failed ${res.statusCode}: ${res.body}`);
  return { cookie: sessionCookieFrom(res), user: res.json() as { id: string; email: string; role: string }, password: body.password };
}
