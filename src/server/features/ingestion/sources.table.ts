import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RunNote } from '../../../contract/ingestion.ts';

/** A feed or API the city's events come from, with its health. */
export const sources = pgTable(
  'sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    connector: text('connector').notNull(),
    url: text('url'),
    sourceType: text('source_type').notNull(),
    trusted: boolean('trusted').notNull().default(false),
    intervalMinutes: integer('interval_minutes').notNull().default(10),
    enabled: boolean('enabled').notNull().default(true),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    isDemo: boolean('is_demo').notNull().default(false),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    eventsSeen: integer('events_seen').notNull().default(0),
    /** Entries of the feed its last successful run could not use (that run's notes say why). */
    lastRunSkipped: integer('last_run_skipped').notNull().default(0),
    /** Listed events its last successful run did not meet yet kept listed (a partial read, a sudden drop). */
    lastRunHeld: integer('last_run_held').notNull().default(0),
    /** Why it kept them: it did not read the whole source, or most of the source went missing at once. */
    lastRunHeldReason: text('last_run_held_reason', { enum: ['partial-read', 'sudden-drop'] }),
    etag: text('etag'),
    lastModified: text('last_modified'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sources_enabled_idx').on(t.enabled)],
);

/** One run of a source and what it did. */
export const sourceRuns = pgTable(
  'source_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['success', 'not_modified', 'error'] }).notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual', 'seed'] }).notNull(),
    fetched: integer('fetched').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    merged: integer('merged').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    /** Entries of the feed parsing could not use; `notes` says why, by reason. */
    skipped: integer('skipped').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    errorMessage: text('error_message'),
    notes: jsonb('notes').$type<RunNote[]>().notNull().default([]),
  },
  (t) => [
    index('source_runs_source_idx').on(t.sourceId, t.startedAt),
    // The latest run of all (the Overview's "last run") and the runs of a window (the assistant's
    // source status) without reading a year of runs.
    index('source_runs_finished_idx').on(t.finishedAt),
    index('source_runs_started_idx').on(t.startedAt),
  ],
);
