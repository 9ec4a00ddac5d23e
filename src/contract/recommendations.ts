import { z } from 'zod';
import { CATEGORIES, EventSummary } from './events.ts';

/** GET /api/events/recommended?limit=: upcoming events ranked for the signed-in user. */
export const RecommendedQuery = z.object({ limit: z.coerce.number({ error: 'limit must be a whole number' }).int().min(1, 'limit must be at least 1').max(50, 'limit must be at most 50').default(10) });
export type RecommendedQuery = z.infer<typeof RecommendedQuery>;

/** A recommended event: the card's summary plus one short line saying why ("Because you saved Jazz Night"). */
export const RecommendedEvent = EventSummary.extend({ reason: z.string() });
export type RecommendedEvent = z.infer<typeof RecommendedEvent>;
export const RecommendedResponse = z.array(RecommendedEvent);

/** POST /api/events/:id/dismiss: hides the event from my recommendations. */
export const DismissResponse = z.object({ dismissed: z.literal(true) });

/** POST /api/events/:id/view: an event page opened, or a recommendation clicked. */
export const EventViewBody = z.object({ via: z.enum(['page', 'recommendation']) });
export type EventViewBody = z.infer<typeof EventViewBody>;
export const EventViewResponse = z.object({ recorded: z.boolean() });

/** GET/PUT /api/user/interests: the cold-start step after sign-up (skippable: PUT empty lists). */
export const InterestsBody = z.object({
  categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length),
  neighbourhoods: z.array(z.string().trim().min(1).max(80)).max(30),
});
export type InterestsBody = z.infer<typeof InterestsBody>;
/** `chosen` is false until the user has picked or skipped (then the step is not shown again). */
export const InterestsResponse = InterestsBody.extend({ chosen: z.boolean() });
export type InterestsResponse = z.infer<typeof InterestsResponse>;

/** Community Buzz (Discover home): the latest public actions of other people. */
export const BUZZ_ACTIONS = ['saved', 'checked_in', 'shared_story', 'scanned_flyer'] as const;
/** Each action in words, between the actor and the subject ("Mia T. scanned a flyer of Winter Lantern Walk"). */
export const BUZZ_VERBS: Record<(typeof BUZZ_ACTIONS)[number], string> = {
  saved: 'saved',
  checked_in: 'checked in at',
  shared_story: 'shared the story',
  scanned_flyer: 'scanned a flyer of',
};
export const BuzzItem = z.object({
  id: z.string(),
  /** First name and initial ('Sam L.'). */
  actor: z.string(),
  action: z.enum(BUZZ_ACTIONS),
  /** The action in words (BUZZ_VERBS), never the raw type. */
  verb: z.string(),
  /** How often the person did it on this subject (a flyer scanned twice is one item, counted 2). */
  count: z.number().int().min(1),
  /** The event's or the story's title. */
  subject: z.string(),
  eventId: z.string().nullable(),
  storyId: z.string().nullable(),
  at: z.string(),
});
export type BuzzItem = z.infer<typeof BuzzItem>;
/** GET /api/community/buzz?limit= (default 3): newest first, never the caller's own, never opted-out people. */
export const BuzzQuery = z.object({ limit: z.coerce.number({ error: 'limit must be a whole number' }).int().min(1, 'limit must be between 1 and 20').max(20, 'limit must be between 1 and 20').default(3) });
export const BuzzResponse = z.object({ items: z.array(BuzzItem) });
export type BuzzResponse = z.infer<typeof BuzzResponse>;
