import { z } from 'zod';
import { EventSummary } from './events.ts';

/** One listing of a proposed pair, with the names of the sources that list it (two iCal feeds both read 'ical'). */
export const DuplicateSide = EventSummary.extend({
  sourceNames: z.array(z.string()),
  /** The start of its description (at most DESCRIPTION_PREVIEW characters): what may tell two listings alike in all else apart. */
  description: z.string(),
  /** Its source no longer lists it: it cannot be the one kept (the other would leave every list with it). */
  removedBySource: z.boolean(),
});
export const DESCRIPTION_PREVIEW = 280;
export type DuplicateSide = z.infer<typeof DuplicateSide>;

/** Two listed events that may be one, waiting for an admin (GET /api/admin/duplicates). */
export const DuplicatePair = z.object({
  id: z.string(),
  /** 'cross_source': two sources' records; 'same_source': one source listed it twice under two ids. */
  kind: z.enum(['cross_source', 'same_source']),
  /** 0..1, how much the evidence agrees. */
  score: z.number(),
  /** Why it was proposed, in a few words. */
  reason: z.string(),
  createdAt: z.string(),
  a: DuplicateSide,
  b: DuplicateSide,
});
export type DuplicatePair = z.infer<typeof DuplicatePair>;

export const DuplicateListResponse = z.object({
  /** The most likely open proposals, at most 100. */
  pairs: z.array(DuplicatePair),
  /** How many proposals are open in all. */
  open: z.number().int(),
  /** Learned from admins' decisions: cross-source proposals scoring at least this merge on their own; null until decisions support one. */
  mergeThreshold: z.number().nullable(),
  decisions: z.object({ merged: z.number().int(), keptApart: z.number().int() }),
});
export type DuplicateListResponse = z.infer<typeof DuplicateListResponse>;

export const MergeBody = z
  .object({ keepId: z.uuid('keepId must be the id of one of the two events').optional() })
  .nullish();
export const MergeResponse = z.object({ eventId: z.string(), mergedId: z.string() });
export const KeepApartResponse = z.object({ id: z.string(), status: z.literal('kept_apart') });
/** POST /api/admin/events/:id/split: with `recordId`, that record alone; else every record. */
export const SplitBody = z.object({ recordId: z.uuid('recordId must be the id of a record merged into the event').optional() }).nullish();
/** GET /api/admin/events/:id/records: the records merged into an event, each as its source gives it. */
export const MergedRecord = z.object({
  id: z.string(),
  title: z.string(),
  startDate: z.string(),
  venue: z.string(),
  sourceNames: z.array(z.string()),
  /** Its source no longer lists it. */
  dropped: z.boolean(),
});
export type MergedRecord = z.infer<typeof MergedRecord>;
export const MergedRecordsResponse = z.array(MergedRecord);
/** POST /api/admin/events/:id/split: the records given back their own listing. */
export const SplitResponse = z.object({ eventId: z.string(), restored: z.array(z.string()) });
