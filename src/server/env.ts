import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const optionalUrl = z.url().optional();

/** Every environment variable the server reads; `.env.example` documents each. */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    /** A backup downloaded from the admin's Security tab, to fill an empty DATA_DIR from at start. */
    RESTORE_FROM: z.string().min(1).optional(),
    /** Where scheduled backups of the embedded database are written (default DATA_DIR/backups). */
    BACKUP_DIR: z.string().min(1).optional(),
    /** Hours between scheduled backups of the embedded database (up to 24 days); 0 turns them off. */
    BACKUP_EVERY_HOURS: z.coerce.number().min(0).max(24 * 24).default(24),
    /** Days a scheduled backup is kept; the newest is always kept. */
    BACKUP_KEEP_DAYS: z.coerce.number().min(1).max(3650).default(7),
    /** The built web app to serve (default dist/web); a second checkout's build or a test build may live elsewhere. */
    WEB_DIR: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    PUBLIC_URL: optionalUrl,
    TRUST_PROXY: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OIDC_ISSUER_URL: optionalUrl,
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    SEED_DEMO: bool.default(true),
    ALLOW_PRIVATE_SOURCES: bool.default(false),
    RUN_SCHEDULER: bool.default(true),
    /** Worker processes `npm start` runs on PostgreSQL (default: every core in production, else 1); the embedded database allows one. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    CITY_CONFIG: z.string().min(1).optional(),
    /** Sign-ups and sign-ins allowed per minute from one address (with every worker and instance on the database counting together). */
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
    /** OpenAI-compatible endpoint (its URL up to /chat/completions); unset, AI features use only the built-in engines. */
    LLM_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
    /** Map tiles for /map, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; unset, the map draws the city's neighbourhoods only. */
    MAP_TILE_URL: z.string().regex(/^https:\/\/.+\{z\}.*\{x\}.*\{y\}/, 'must be an https:// URL template with {z}, {x} and {y}').optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required when NODE_ENV=production' });
    }
    const oidc = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
    if (oidc !== 0 && oidc !== 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER_URL'],
        message: 'OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

/** Parses the environment once at start; a bad value throws one line per variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `Invalid environment variable ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(lines.join('\n'));
  }
  return result.data;
}
