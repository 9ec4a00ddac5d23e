import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const AUDIT_RESULTS = ['ok', 'refused', 'failed'] as const;

/**
 * Every admin action: who, what, on which target, when, and how it ended. Append-only: the
 * migration adds a trigger that refuses UPDATE and DELETE on this table.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** No foreign key: the log outlives accounts, and a cascade would be an UPDATE it refuses. */
    actorId: uuid('actor_id'),
    /** The actor's email at the time, kept when the account is gone. */
    actorEmail: text('actor_email').notNull(),
    /** A dotted verb: 'event.approve', 'user.role', 'assistant.clear_cache' ... */
    action: text('action').notNull(),
    /** What it acted on ('event:<id>', 'user:<id>', 'source:<id>'), or null. */
    target: text('target'),
    result: text('result', { enum: AUDIT_RESULTS }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/** Server errors worth an admin's eye (unhandled 5xx, failed jobs), for "View Error Logs". */
export const errorLog = pgTable(
  'error_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    level: text('level', { enum: ['error', 'warn'] }).notNull().default('error'),
    /** Where it happened: 'http', 'ingestion', 'images', 'scheduler' ... */
    origin: text('origin').notNull(),
    message: text('message').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('error_log_at_idx').on(t.at)],
);

export type AuditRow = typeof auditLog.$inferSelect;
export type ErrorLogRow = typeof errorLog.$inferSelect;
