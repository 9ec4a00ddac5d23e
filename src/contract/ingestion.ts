import { z } from 'zod';

export const CONNECTOR_IDS = ['ical', 'rss', 'jsonld', 'eventbrite', 'meetup', 'ticketmaster', 'socrata', 'ckan', 'gancio', 'mobilizon', 'csv'] as const;
export const ConnectorId = z.enum(CONNECTOR_IDS);

const sourceType = z
  .string()
  .trim()
  .min(1, 'sourceType is required')
  .max(40)
  .regex(/^[a-z0-9_-]+$/, 'sourceType must be lower-case letters, digits, - or _');

/** An uploaded CSV (config.csv) may be as large as a fetched feed. */
export const MAX_CSV_UPLOAD_BYTES = 10 * 1024 * 1024;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** A connector's settings; an uploaded CSV is text of at most 10 MB. */
const sourceConfig = z.record(z.string(), z.unknown()).superRefine((config, ctx) => {
  const csv = config.csv;
  if (csv === undefined) return;
  if (typeof csv !== 'string') ctx.addIssue({ code: 'custom', path: ['csv'], message: 'config.csv must be the CSV text' });
  else if (csv.length > MAX_CSV_UPLOAD_BYTES / 4 && utf8Bytes(csv) > MAX_CSV_UPLOAD_BYTES) ctx.addIssue({ code: 'custom', path: ['csv'], message: 'config.csv must be at most 10 MB' });
});

/** POST /api/admin/sources */
export const SourceCreate = z.object({
  name: z.string().trim().min(1, 'name is required').max(120),
  connector: ConnectorId,
  url: z.url('url must be a URL').max(2000).optional(),
  sourceType,
  intervalMinutes: z.number().int().min(1, 'intervalMinutes must be between 1 and 15').max(15, 'intervalMinutes must be between 1 and 15').default(10),
  trusted: z.boolean().default(false),
  enabled: z.boolean().default(true),
  config: sourceConfig.default({}),
});
export type SourceCreate = z.infer<typeof SourceCreate>;

/** PATCH /api/admin/sources/:id */
export const SourcePatch = z
  .object({
    name: z.string().trim().min(1).max(120),
    url: z.url().max(2000).nullable(),
    sourceType,
    intervalMinutes: z.number().int().min(1, 'intervalMinutes must be between 1 and 15').max(15, 'intervalMinutes must be between 1 and 15'),
    trusted: z.boolean(),
    enabled: z.boolean(),
    config: sourceConfig,
  })
  .partial();
export type SourcePatch = z.infer<typeof SourcePatch>;

export const SourceResponse = z.object({
  id: z.string(),
  name: z.string(),
  connector: z.string(),
  url: z.string().nullable(),
  sourceType: z.string(),
  trusted: z.boolean(),
  intervalMinutes: z.number().int(),
  enabled: z.boolean(),
  isDemo: z.boolean(),
  /** Config with secrets (token, apiKey, ...) masked. */
  config: z.record(z.string(), z.unknown()),
  health: z.object({
    lastRunAt: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    lastError: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    eventsSeen: z.number().int(),
    /** Entries of the feed the last successful run could not use (its History says why). */
    lastRunSkipped: z.number().int(),
    /**
     * Listed events the last successful run did not meet and kept listed: it did not read the whole
     * source, or most of the source's events went missing at once (its History says which).
     */
    lastRunHeld: z.number().int(),
    /**
     * Why, when it kept any: `partial-read` (a page limit or the repeat budget: the missing ones may
     * simply be unread) or `sudden-drop` (most of the source at once, which an admin may confirm
     * with POST /api/admin/sources/:id/remove-held instead of waiting out the hold).
     */
    lastRunHeldReason: z.enum(['partial-read', 'sudden-drop']).nullable(),
    etag: z.string().nullable(),
    lastModified: z.string().nullable(),
  }),
});
export type SourceResponse = z.infer<typeof SourceResponse>;

/**
 * What a run could not use from a source, by reason. `skipped`: entries of the feed that are not
 * listed (no title, no start, unreadable); `repeated`: exact repeats kept once; `rejected`: items
 * refused when normalised (already ended, beyond two years); `kept`: items listed with a field
 * left out; `unread`: a part of the source the run did not read (a page limit, the repeat budget);
 * `removed`: listed events the run removed (no longer in the source, or cancelled or postponed by
 * it), or that it kept after a sudden drop and an admin then removed; `relisted`: events removed,
 * cancelled or postponed before that the source lists again.
 */
export const RUN_NOTE_KINDS = ['skipped', 'repeated', 'rejected', 'kept', 'unread', 'removed', 'relisted'] as const;
export type RunNoteKind = (typeof RUN_NOTE_KINDS)[number];
export const RunNote = z.object({
  kind: z.enum(RUN_NOTE_KINDS),
  reason: z.string(),
  count: z.number().int(),
  /** A few of the entries (a title, an id, a row number), to find them in the feed. */
  examples: z.array(z.string()),
});
export type RunNote = z.infer<typeof RunNote>;

/** A note's reason as it reads for its count: reasons are written for many ('were ...') and read 'was ...' for one. */
export const runNoteReason = (n: Pick<RunNote, 'reason' | 'count'>): string => (n.count === 1 ? n.reason.replace(/^were\b/, 'was') : n.reason);

export const RunSummaryResponse = z.object({
  status: z.enum(['success', 'not_modified', 'error']),
  fetched: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  merged: z.number().int(),
  rejected: z.number().int(),
  /** Entries of the feed that parsing could not use (the `skipped` notes). */
  skipped: z.number().int(),
  errors: z.number().int(),
  error: z.string().optional(),
  notes: z.array(RunNote),
});
export type RunSummaryResponse = z.infer<typeof RunSummaryResponse>;

/**
 * Hours a sudden drop (most of a source's listed events missing at once) stays listed before a
 * run removes it, unless an admin removes it sooner (remove-held).
 */
export const SUDDEN_DROP_HOLD_HOURS = 6;

/** POST /api/admin/sources/:id/remove-held: how many held events were marked removed by the source. */
export const RemoveHeldResponse = z.object({ removed: z.number().int() });
export type RemoveHeldResponse = z.infer<typeof RemoveHeldResponse>;

export const SourceRunResponse = RunSummaryResponse.extend({
  id: z.string(),
  trigger: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});
export type SourceRunResponse = z.infer<typeof SourceRunResponse>;

export const ClassifyBody = z.object({
  events: z
    .array(z.object({ title: z.string().max(1000), description: z.string().max(20_000).optional() }))
    .min(1, 'events must not be empty')
    .max(1000, 'events must hold at most 1000 items'),
});
export const ClassifyResponse = z.array(z.object({ category: z.string(), confidence: z.number() }));

export const ImportUrlBody = z.object({ url: z.url('url must be a http(s) URL').max(2000) });
/** POST /api/events/import-url: 201 a new contribution waiting for review, 200 an event Townbeat already has. */
export const ImportUrlCreated = z.object({ eventId: z.string(), status: z.literal('pending'), message: z.string() });
/** `eventId` only when the member may open its page (listed, or their own still in review). */
export const ImportUrlExisting = z.object({ eventId: z.string().nullable(), status: z.literal('existing'), message: z.string() });
export type ImportUrlResponse = z.infer<typeof ImportUrlCreated> | z.infer<typeof ImportUrlExisting>;
