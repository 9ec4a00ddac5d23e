import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { SecurityReport } from '../../../contract/admin.ts';
import { queryRows, type Database } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import type { AdminRepository } from './admin.repository.ts';

type Check = SecurityReport['checklist'][number] & { weight: number };

const journalFile = fileURLToPath(new URL('../../db/migrations/meta/_journal.json', import.meta.url));
/** Above this many admins the check warns: every admin is a way in. */
const MANY_ADMINS = 5;
/** More sign-in attempts a minute from one address than this is a warning (the default is 20). */
const LOOSE_AUTH_LIMIT = 60;

/** The score: the weighted share of applicable checks that pass, 0..100. */
export function securityScore(checks: readonly Pick<Check, 'status' | 'weight'>[]): number {
  const applicable = checks.filter((c) => c.status !== 'n/a');
  const total = applicable.reduce((n, c) => n + c.weight, 0);
  if (total === 0) return 100;
  return Math.round((100 * applicable.filter((c) => c.status === 'pass').reduce((n, c) => n + c.weight, 0)) / total);
}

/** Migrations in the repository that the database has not applied (drizzle records each one's folder time). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { when: number; tag: string }[] };
  let applied: number[] = [];
  try {
    const rows = await queryRows<{ created_at: string | number }>(database.db, sql`select created_at from drizzle.__drizzle_migrations`);
    applied = rows.map((r) => Number(r.created_at));
  } catch {
    // No migrations table: nothing was applied.
  }
  const last = applied.length ? Math.max(...applied) : -Infinity;
  return journal.entries.filter((e) => e.when > last && !applied.includes(e.when)).map((e) => e.tag);
}

/**
 * The Security tab's report, from checks made when asked: the session secret's origin, Secure
 * cookies, the headers a real answer carries, rate limits, the admins, migrations, TLS to the
 * database and whether sources may reach private addresses.
 */
export function createSecurityService(deps: { app: FastifyInstance; env: Env; database: Database; admin: AdminRepository }) {
  const { app, env, database } = deps;
  const production = env.NODE_ENV === 'production';
  const httpsPublic = env.PUBLIC_URL?.startsWith('https://') ?? false;

  async function headersCheck(): Promise<Check> {
    const res = await app.inject({ method: 'GET', url: '/api/config' });
    const wanted = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', ...(httpsPublic ? ['strict-transport-security'] : [])];
    const missing = wanted.filter((h) => !res.headers[h]);
    return {
      item: 'Security headers sent',
      status: missing.length ? 'fail' : 'pass',
      detail: missing.length ? `Missing on a live answer: ${missing.join(', ')}` : `A live answer carries ${wanted.join(', ')}`,
      weight: 2,
    };
  }

  async function tlsCheck(): Promise<Check> {
    if (database.kind === 'pglite') return { item: 'TLS to the database', status: 'n/a', detail: 'Embedded database in this process: no network connection', weight: 1 };
    try {
      const [row] = await queryRows<{ ssl: boolean | null }>(database.db, sql`select ssl from pg_stat_ssl where pid = pg_backend_pid()`);
      return row?.ssl
        ? { item: 'TLS to the database', status: 'pass', detail: 'The connection to PostgreSQL is encrypted', weight: 1 }
        : { item: 'TLS to the database', status: production ? 'fail' : 'warn', detail: 'The connection to PostgreSQL is not encrypted: add sslmode=verify-full to DATABASE_URL', weight: 1 };
    } catch {
      return { item: 'TLS to the database', status: 'warn', detail: 'Could not read pg_stat_ssl', weight: 1 };
    }
  }

  return {
    async report(): Promise<SecurityReport> {
      const admins = await deps.admin.enabledAdmins();
      const pending = await pendingMigrations(database);
      const rateLimited = app.routeInventory.filter((r) => r.rateLimited).map((r) => r.url);
      const checks: Check[] = [
        env.SESSION_SECRET
          ? { item: 'Session secret configured', status: 'pass', detail: 'SESSION_SECRET is set from the environment', weight: 2 }
          : { item: 'Session secret configured', status: production ? 'fail' : 'warn', detail: 'Generated and kept in DATA_DIR/session-secret; set SESSION_SECRET for production', weight: 2 },
        production || httpsPublic
          ? { item: 'Secure cookies behind HTTPS', status: 'pass', detail: 'Session cookies are httpOnly, SameSite=Lax and Secure', weight: 2 }
          : { item: 'Secure cookies behind HTTPS', status: 'fail', detail: 'Cookies are not marked Secure: set PUBLIC_URL to an https:// address', weight: 2 },
        await headersCheck(),
        !app.hasPlugin('@fastify/rate-limit') || !rateLimited.includes('/api/auth/login')
          ? { item: 'Rate limits on', status: 'fail', detail: rateLimited.length ? 'Sign-in is not rate limited' : 'No route is rate limited', weight: 1 }
          : env.AUTH_RATE_LIMIT > LOOSE_AUTH_LIMIT
            ? { item: 'Rate limits on', status: 'warn', detail: `Sign-in allows ${env.AUTH_RATE_LIMIT} attempts a minute per address (AUTH_RATE_LIMIT): passwords are easier to guess`, weight: 1 }
            : { item: 'Rate limits on', status: 'pass', detail: `${rateLimited.length} routes are rate limited, sign-in among them (${env.AUTH_RATE_LIMIT} a minute per address)`, weight: 1 },
        {
          item: 'Administrators',
          status: admins.length === 0 ? 'fail' : admins.length > MANY_ADMINS ? 'warn' : 'pass',
          detail: admins.length === 0 ? 'No enabled admin account' : `${admins.length} ${admins.length === 1 ? 'admin' : 'admins'}: ${admins.map((a) => a.email).join(', ')}`,
          weight: 1,
        },
        pending.length
          ? { item: 'Database migrations applied', status: 'fail', detail: `Pending: ${pending.join(', ')}`, weight: 2 }
          : { item: 'Database migrations applied', status: 'pass', detail: 'Every migration in this release is applied', weight: 2 },
        await tlsCheck(),
        env.ALLOW_PRIVATE_SOURCES
          ? { item: 'Sources kept off private networks', status: production ? 'fail' : 'warn', detail: 'ALLOW_PRIVATE_SOURCES is on: feeds may reach private and loopback addresses', weight: 1 }
          : { item: 'Sources kept off private networks', status: 'pass', detail: 'Feeds cannot reach private or loopback addresses', weight: 1 },
      ];
      return { securityScore: securityScore(checks), checklist: checks.map(({ item, status, detail }) => ({ item, status, detail })) };
    },
  };
}
