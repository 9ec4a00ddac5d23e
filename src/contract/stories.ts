import { z } from 'zod';

// Community stories (spec sections 2, 3, 4, 5, 7, 9): legends, histories and mysteries of the
// city's places, written by members or by the story generator.

export const STORY_CATEGORIES = ['legend', 'history', 'mystery', 'community'] as const;
export const StoryCategory = z.enum(STORY_CATEGORIES);
export type StoryCategory = z.infer<typeof StoryCategory>;
/** What the generator writes: every category but the members' own. */
export const GENERATED_CATEGORIES = ['legend', 'history', 'mystery'] as const;
export type GeneratedCategory = (typeof GENERATED_CATEGORIES)[number];

/** Spec section 9: content cap, and the preview lengths of the featured and the full list. */
export const STORY_CONTENT_MAX = 5000;
export const FEATURED_PREVIEW_CHARS = 200;
export const LIST_PREVIEW_CHARS = 150;
export const STORY_TITLE_MAX = 120;
export const STORY_AUTHOR_MAX = 80;
/** Distinct members' reports that hide a story until an admin reviews it. */
export const REPORTS_TO_HIDE = 3;

/** Category labels for the filter and the cards. */
export const CATEGORY_LABELS: Record<StoryCategory, string> = {
  legend: 'Legend',
  history: 'History',
  mystery: 'Mystery',
  community: 'Community',
};

/** Story (spec section 3), plus what the page needs to draw the caller's own state. */
export const Story = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  category: StoryCategory,
  author: z.string(),
  /** ISO instant. */
  createdAt: z.string(),
  likes: z.number().int(),
  views: z.number().int(),
  aiGenerated: z.boolean(),
  /** Which engine wrote a generated story: 'built-in' or the model's name; null for members' stories. */
  generator: z.string().nullable(),
  featured: z.boolean(),
  /** Invented demo content of the demo city. */
  isDemo: z.boolean(),
  likedByMe: z.boolean(),
  reportedByMe: z.boolean(),
  /** Admins only: whether reports hid it (and since when), and how many reports it has. */
  moderation: z.object({ hiddenAt: z.string().nullable(), reviewedAt: z.string().nullable(), reports: z.number().int() }).optional(),
});
export type Story = z.infer<typeof Story>;

/** GET /api/stories?category=: the list (newest first), featured ones, and counts of the whole collection. */
export const StoriesQuery = z.object({
  category: z.union([StoryCategory, z.literal('all')], { message: 'category must be all, legend, history, mystery or community' }).optional(),
});
export type StoriesQuery = z.infer<typeof StoriesQuery>;

export const StoriesResponse = z.object({
  stories: z.array(Story),
  categories: z.array(StoryCategory),
  /** Stories an admin featured (within the category filter). */
  featured: z.array(Story),
  /** Counts over every story the caller can see, whatever the filter. */
  metadata: z.object({ totalStories: z.number().int(), aiGenerated: z.number().int(), userSubmitted: z.number().int() }),
});
export type StoriesResponse = z.infer<typeof StoriesResponse>;

/** POST /api/stories (spec sections 5 and 7). */
export const StoryBody = z.object({
  title: z
    .string({ message: 'title is required' })
    .trim()
    .min(1, 'title is required')
    .max(STORY_TITLE_MAX, `title must be at most ${STORY_TITLE_MAX} characters`),
  content: z
    .string({ message: 'content is required' })
    .refine((s) => s.trim().length > 0, 'content must not be empty')
    .refine((s) => s.length <= STORY_CONTENT_MAX, `content must be at most ${STORY_CONTENT_MAX} characters`),
  category: z.enum(STORY_CATEGORIES, { message: 'category must be one of legend, history, mystery, community' }).default('community'),
  author: z
    .string({ message: 'author is required' })
    .trim()
    .min(1, 'author is required')
    .max(STORY_AUTHOR_MAX, `author must be at most ${STORY_AUTHOR_MAX} characters`),
});
export type StoryBody = z.input<typeof StoryBody>;

export const StoryCreated = z.object({
  story: Story,
  pointsEarned: z.number().int(),
  badges: z.array(z.object({ title: z.string(), points: z.number().int() })),
  /** Set when the story was saved but earned nothing (the daily cap). */
  message: z.string().optional(),
});
export type StoryCreated = z.infer<typeof StoryCreated>;

export const StoryParams = z.object({ id: z.uuid({ message: 'id must be a story id' }) });

/** POST /api/stories/:id/like: without a body it toggles; `{ liked }` sets (a retry changes nothing). */
export const LikeBody = z.object({ liked: z.boolean({ message: 'liked must be true or false' }).optional() }).nullish();
export const LikeResponse = z.object({ liked: z.boolean(), likes: z.number().int() });
export type LikeResponse = z.infer<typeof LikeResponse>;

/** POST /api/stories/:id/view: counted once per member per local day. */
export const ViewResponse = z.object({ views: z.number().int(), counted: z.boolean() });
export type ViewResponse = z.infer<typeof ViewResponse>;

export const ReportBody = z.object({ reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional() }).nullish();
export const ReportResponse = z.object({ reported: z.boolean(), hidden: z.boolean() });
export type ReportResponse = z.infer<typeof ReportResponse>;

export const ReviewBody = z.object({ action: z.enum(['restore', 'remove'], { message: 'action must be restore or remove' }) });
export type ReviewBody = z.infer<typeof ReviewBody>;
export const ReviewResponse = z.object({ action: z.enum(['restore', 'remove']), story: Story.nullable() });
export type ReviewResponse = z.infer<typeof ReviewResponse>;

export const FeatureBody = z.object({ featured: z.boolean({ message: 'featured must be true or false' }) });
export type FeatureBody = z.infer<typeof FeatureBody>;

/** POST /api/stories/generate (admin): one generated story about a place of the city. */
export const GenerateBody = z.object({
  category: z.enum(GENERATED_CATEGORIES, { message: 'category must be legend, history or mystery' }).optional(),
  place: z.string().trim().min(1, 'place must not be empty').max(200, 'place must be at most 200 characters').optional(),
});
export type GenerateBody = z.infer<typeof GenerateBody>;
