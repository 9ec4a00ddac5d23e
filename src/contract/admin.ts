import { z } from 'zod';

/** Spec section 9: the Security tab shows the score green at this value or more. */
export const SECURITY_GREEN_AT = 80;
/** Spec section 9: the admin page asks for the system status this often. */
export const SYSTEM_STATUS_POLL_MS = 5_000;

export const USER_ROLES = ['user', 'vendor', 'admin'] as const;
export const UserRole = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof UserRole>;

/* ------------------------------------------------------------------ system status */

/** GET /api/admin/overview: the Overview's figures, and what waits for an admin's decision. */
export const AdminOverviewResponse = z.object({
  totalEvents: z.number().int(),
  activeUsers7d: z.number().int(),
  /** Events waiting for review: not listed until approved. */
  pendingEvents: z.number().int(),
  /** Possible duplicate pairs waiting to be merged or kept apart. */
  openDuplicates: z.number().int(),
});
export type AdminOverviewResponse = z.infer<typeof AdminOverviewResponse>;

/** GET /api/admin/system-status (spec section 3), every figure measured when asked. */
export const SystemStatus = z.object({
  database: z.object({
    /** 'connected', 'slow' (round trip over the threshold) or 'down'. */
    status: z.enum(['connected', 'slow', 'down']),
    /** Round trip of `select 1`, in milliseconds; null when it failed. */
    responseTime: z.number().nullable(),
    /** The embedded database (PGlite in DATA_DIR; the admin downloads its backups) or a PostgreSQL server (pg_dump backs it up). */
    kind: z.enum(['embedded', 'postgres']),
  }),
  api: z.object({ status: z.enum(['operational', 'degraded']), endpoints: z.number().int() }),
  websocket: z.object({ status: z.enum(['active', 'idle']), connections: z.number().int() }),
  scraping: z.object({
    /** 'running' (scheduler on), 'stopped' (it should run but does not), 'off' (not started on this instance), 'failing' (most sources' last runs failed). */
    status: z.enum(['running', 'stopped', 'off', 'failing']),
    /** When the last source run finished (ISO), or null. */
    lastRun: z.string().nullable(),
    lastResult: z.enum(['success', 'not_modified', 'error']).nullable(),
    lastSource: z.string().nullable(),
    /**
     * Enabled sources that have run, those whose last run failed, those whose last run left entries
     * of the feed out, and those whose last run kept listed events it did not meet.
     */
    sources: z.number().int(),
    failing: z.number().int(),
    leftOut: z.number().int(),
    held: z.number().int(),
  }),
  ai: z.object({ status: z.enum(['operational', 'degraded']), model: z.string() }),
});
export type SystemStatus = z.infer<typeof SystemStatus>;

/* ------------------------------------------------------------------ security report */

export const CheckStatus = z.enum(['pass', 'warn', 'fail', 'n/a']);
export const SecurityReport = z.object({
  /** 0..100: the weighted share of applicable checks that pass. */
  securityScore: z.number().int().min(0).max(100),
  checklist: z.array(z.object({ item: z.string(), status: CheckStatus, detail: z.string() })),
});
export type SecurityReport = z.infer<typeof SecurityReport>;

/* ------------------------------------------------------------------ analytics */

export const AnalyticsQuery = z.object({
  days: z.coerce.number({ error: 'days must be a number from 1 to 365' }).int('days must be a whole number').min(1, 'days must be at least 1').max(365, 'days must be at most 365').default(30),
});

export const AnalyticsDay = z.object({
  /** The day in the city's time zone, YYYY-MM-DD. */
  date: z.string(),
  signups: z.number().int(),
  /** Distinct users who earned points, saved a favourite, scanned a flyer, signed in or used a session that day. */
  activeUsers: z.number().int(),
  eventsIngested: z.number().int(),
  /** Events first stored that day, by their source type. */
  eventsBySource: z.record(z.string(), z.number().int()),
  /** Admin decisions from the audit log. */
  approvals: z.number().int(),
  rejections: z.number().int(),
  favorites: z.number().int(),
  /** Flyer scans plus QR check-ins and visits. */
  scans: z.number().int(),
  pointsPaid: z.number().int(),
});
export type AnalyticsDay = z.infer<typeof AnalyticsDay>;

export const AnalyticsResponse = z.object({
  days: z.number().int(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  sourceTypes: z.array(z.string()),
  series: z.array(AnalyticsDay),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;

/* ------------------------------------------------------------------ users */

export const AdminUsersQuery = z.object({
  search: z.string().trim().max(200, 'search is at most 200 characters').optional().default(''),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(20),
  offset: z.coerce.number({ error: 'offset must be a number' }).int().min(0, 'offset must be 0 or more').default(0),
});

export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: UserRole,
  points: z.number().int(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** The latest use of any of the user's sessions, or null. */
  lastActiveAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUsersResponse = z.object({ users: z.array(AdminUser), total: z.number().int() });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

export const AdminUserParams = z.object({ id: z.uuid('id must be a user id') });
export const AdminUserPatch = z
  .object({ role: UserRole.optional(), disabled: z.boolean({ error: 'disabled must be true or false' }).optional() })
  .strict()
  .refine((p) => p.role !== undefined || p.disabled !== undefined, { message: 'Give role or disabled' });
export type AdminUserPatch = z.infer<typeof AdminUserPatch>;

export const UserActivitiesQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, 'limit must be at least 1').max(200, 'limit must be at most 200').default(50),
  offset: z.coerce.number({ error: 'offset must be a number' }).int().min(0, 'offset must be 0 or more').default(0),
});
export const UserActivity = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  activityType: z.string(),
  description: z.string(),
  pointsEarned: z.number().int(),
  eventId: z.string().nullable(),
  createdAt: z.string(),
});
export const UserActivitiesResponse = z.object({ activities: z.array(UserActivity), total: z.number().int() });
export type UserActivitiesResponse = z.infer<typeof UserActivitiesResponse>;

/* ------------------------------------------------------------------ audit */

export const AuditQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, 'limit must be at least 1').max(200, 'limit must be at most 200').default(20),
});
export const AuditEntryResponse = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  result: z.enum(['ok', 'refused', 'failed']),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntryResponse = z.infer<typeof AuditEntryResponse>;
export const AuditResponse = z.object({ entries: z.array(AuditEntryResponse) });
export type AuditResponse = z.infer<typeof AuditResponse>;

/* ------------------------------------------------------------------ AI status */

export const AI_FEATURES = ['classification', 'recommendations', 'ocr', 'stories', 'memory_forge', 'assistant'] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

export const AiFeatureStatus = z.object({
  feature: z.enum(AI_FEATURES),
  label: z.string(),
  /** 'built-in' (offline engine) or 'model' (the configured language model). */
  engine: z.enum(['built-in', 'model']),
  /** The built-in engine's name or the model's name. */
  model: z.string(),
  /** Mean of the recent calls, in milliseconds; null before the first call. */
  latencyMs: z.number().nullable(),
  calls: z.number().int(),
  failures: z.number().int(),
  lastUsedAt: z.string().nullable(),
});
export type AiFeatureStatus = z.infer<typeof AiFeatureStatus>;

/** GET /api/admin/ai-status: the classifier's measured held-out figures and each AI feature's engine. */
export const AiStatusResponse = z.object({
  model: z.string(),
  accuracy: z.number().nullable(),
  macroF1: z.number().nullable(),
  evaluatedOn: z.string(),
  /** The language model asked about low-confidence events, when one is configured. */
  llm: z.object({ model: z.string() }).nullable().optional(),
  features: z.array(AiFeatureStatus),
});
export type AiStatusResponse = z.infer<typeof AiStatusResponse>;

/* ------------------------------------------------------------------ backups */

/** A backup the server wrote into its backup directory (BACKUP_DIR). */
export const StoredBackup = z.object({
  /** `townbeat-backup-<UTC time>.tar.gz`: GET /api/admin/backups/:name downloads it. */
  name: z.string(),
  at: z.string(),
  bytes: z.number().int(),
});
export type StoredBackup = z.infer<typeof StoredBackup>;

/** GET /api/admin/backups: the schedule and the backups kept, newest first. */
export const BackupsResponse = z.object({
  /** False on PostgreSQL (pg_dump backs it up) and with BACKUP_EVERY_HOURS=0. */
  scheduled: z.boolean(),
  /** Null on PostgreSQL. */
  dir: z.string().nullable(),
  everyHours: z.number(),
  keepDays: z.number(),
  /** When the next scheduled backup is due (ISO), or null. */
  next: z.string().nullable(),
  /** The last scheduled backup's failure, until one succeeds. */
  lastError: z.string().nullable(),
  backups: z.array(StoredBackup),
});
export type BackupsResponse = z.infer<typeof BackupsResponse>;

export const StoredBackupParams = z.object({ name: z.string().regex(/^townbeat-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/, 'must be the name of a stored backup') });
