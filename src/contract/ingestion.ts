import { z } from 'zod';

export const CONNECTOR_IDS = ['ical', 'rss', 'jsonld', 'eventbrite', 'meetup', 'ticketmaster', 'socrata', 'ckan', 'gancio', 'mobilizon', 'csv'] as const;
export const ConnectorId = z.enum(CONNECTOR_IDS, {
  error: (issue) => (issue.input === undefined ? 'connector is required' : `connector must be one of ${CONNECTOR_IDS.join(', ')}`),
});

/** A text field's wrong type said by name: missing is "name is required", another type "name must be text". */
const text = (field: string) => z.string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be text`) });

const name = text('name').trim().min(1, 'name is required').max(120, 'name must be at most 120 characters');

const sourceType = text('sourceType')
  .trim()
  .min(1, 'sourceType is required')
  .max(40, 'sourceType must be at most 40 characters')
  .regex(/^[a-z0-9_-]+$/, 'sourceType must be lower-case letters, digits, - or _');

/**
 * A source's address. Only http and https are fetched (the safe fetch refuses the rest at run
 * time); webcal(s), a calendar's subscribe link, is fetched as https (fetch-source.ts).
 */
const sourceUrl = z
  .url({ error: 'url must be a URL', abort: true })
  .max(2000, 'url must be at most 2000 characters')
  .refine((u) => /^(https?|webcals?):/i.test(u), 'only http and https addresses can be read');

const intervalMinutes = z
  .number({ error: 'intervalMinutes must be a whole number of minutes' })
  .int('intervalMinutes must be a whole number of minutes')
  .min(1, 'intervalMinutes must be between 1 and 15')
  .max(15, 'intervalMinutes must be between 1 and 15');
const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });

/** An uploaded CSV (config.csv) may be as large as a fetched feed. */
export const MAX_CSV_UPLOAD_BYTES = 10 * 1024 * 1024;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * A connector's settings; an uploaded CSV is text of at most 10 MB. What each connector needs of
 * them the server checks against the source as saved (its connector's `check`).
 */
const sourceConfig = z.record(z.string(), z.unknown(), { error: 'config must be a JSON object' }).superRefine((config, ctx) => {
  const csv = config.csv;
  if (csv === undefined) return;
  if (typeof csv !== 'string') ctx.addIssue({ code: 'custom', path: ['csv'], message: 'config.csv must be the CSV text' });
  else if (csv.length > MAX_CSV_UPLOAD_BYTES / 4 && utf8Bytes(csv) > MAX_CSV_UPLOAD_BYTES) ctx.addIssue({ code: 'custom', path: ['csv'], message: 'config.csv must be at most 10 MB' });
});

/** Fields a body may not carry are refused by name rather than dropped unseen (`allowed` lists those it may). */
const onlyKnown = (allowed: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys ? `${issue.keys.join(', ')}: not a field ${allowed}` : undefined;

const SOURCE_FIELDS = { name, url: sourceUrl, sourceType, intervalMinutes, trusted: flag('trusted'), enabled: flag('enabled'), config: sourceConfig };

/** POST /api/admin/sources */
export const SourceCreate = z.strictObject(
  {
    ...SOURCE_FIELDS,
    connector: ConnectorId,
    url: sourceUrl.optional(),
    intervalMinutes: intervalMinutes.default(10),
    trusted: flag('trusted').default(false),
    enabled: flag('enabled').default(true),
    config: sourceConfig.default({}),
  },
  { error: onlyKnown('of a new source (name, connector, url, sourceType, intervalMinutes, trusted, enabled, config)') },
);
export type SourceCreate = z.infer<typeof SourceCreate>;

/**
 * PATCH /api/admin/sources/:id. The connector stays what the source was added with (its config
 * means nothing to another): a body naming it, or any other field, is refused by name.
 */
export const SourcePatch = z
  .strictObject({ ...SOURCE_FIELDS, url: sourceUrl.nullable() }, { error: onlyKnown('a source edit can change (name, url, sourceType, intervalMinutes, trusted, enabled, config)') })
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
