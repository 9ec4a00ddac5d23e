import { z } from 'zod';
import type { CityConfig } from '../../../contract/city.ts';
import {
  GENERATED_CATEGORIES,
  REPORTS_TO_HIDE,
  STORY_CATEGORIES,
  STORY_CONTENT_MAX,
  STORY_TITLE_MAX,
  type GenerateBody,
  type GeneratedCategory,
  type LikeResponse,
  type ReportResponse,
  type ReviewBody,
  type ReviewResponse,
  type StoriesQuery,
  type StoriesResponse,
  type Story,
  StoryBody,
  type StoryCategory,
  type StoryCreated,
  type ViewResponse,
} from '../../../contract/stories.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { LlmClient } from '../../lib/llm.ts';
import { announceAward, payAward, type PayOutcome } from '../gaming/awards.ts';
import { fixedPoints, localDay, RULES } from '../gaming/rules.ts';
import type { UserRow } from '../users/users.table.ts';
import { toStory } from './stories.mapper.ts';
import { createStoriesRepository, type NewStoryRow, type PastEventRow } from './stories.repository.ts';
import { generateStory, placeBrief, type Place, type PlaceEvent } from './story-generator.ts';

/** The byline of generated stories; `generator` says which engine wrote each. */
export const GENERATED_AUTHOR = 'Townbeat Story Engine';
export const BUILT_IN_GENERATOR = 'built-in';

/** What a language model must answer: one story as JSON. */
const LlmStory = z.object({
  title: z.string().trim().min(1).max(STORY_TITLE_MAX),
  content: z.string().trim().min(1).max(STORY_CONTENT_MAX),
});

const CATEGORY_BRIEFS: Record<GeneratedCategory, string> = {
  legend: 'a short local legend: playful folklore rooted in the real facts below, clearly told as legend ("they say ...")',
  history: 'a short factual account of what Townbeat has recorded at the place, built only from the facts below; the past events are only those Townbeat recorded, so never say the place’s history begins or ends with them; invent nothing',
  mystery: 'a short local mystery: an unexplained pattern or gap in the facts below, posed as a question for neighbours',
};

export interface StoriesLog {
  warn(obj: object, msg: string): void;
}

export interface StoriesDeps {
  db: Db;
  clock: Clock;
  city: CityConfig;
  bus: EventBus;
  llm: LlmClient | null;
  log: StoriesLog;
  /** Further places (quest nodes) the generator may write about. */
  extraPlaces?: () => Promise<Place[]>;
  /** Times each built-in generation for the admin's AI status (model calls are timed by their client). */
  timer?: { time<T>(feature: 'stories', fn: () => Promise<T>): Promise<T> };
}

const isAdmin = (u: Pick<UserRow, 'role'>) => u.role === 'admin';

/** Past events as places: the city's neighbourhoods (from configuration) and the venues they were held at. */
export function placesFrom(rows: readonly PastEventRow[], city: CityConfig): Place[] {
  const oldestFirst = [...rows].sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  const ev = (r: PastEventRow): PlaceEvent => ({ title: r.title, start: r.startDate, category: r.category, venue: r.venueName });
  const hoods: Place[] = city.neighbourhoods.map((n) => ({
    name: n.name,
    kind: 'neighbourhood',
    neighbourhood: n.name,
    lat: n.lat,
    lng: n.lng,
    events: oldestFirst.filter((r) => r.neighbourhood?.toLowerCase() === n.name.toLowerCase()).map(ev),
  }));
  const venues = new Map<string, Place>();
  for (const r of oldestFirst) {
    const name = r.venueName.trim();
    if (!name) continue;
    const key = name.toLowerCase();
    let v = venues.get(key);
    if (!v) {
      v = { name, kind: 'venue', neighbourhood: r.neighbourhood, lat: r.lat, lng: r.lng, events: [] };
      venues.set(key, v);
    }
    v.neighbourhood ??= r.neighbourhood;
    if (v.lat === null && r.lat !== null) Object.assign(v, { lat: r.lat, lng: r.lng });
    v.events.push(ev(r));
  }
  const hoodNames = new Set(hoods.map((h) => h.name.toLowerCase()));
  return [...hoods, ...[...venues.values()].filter((v) => !hoodNames.has(v.name.toLowerCase()))];
}

/** Community stories: listing, sharing (with points), likes, views, reports, moderation and the generator. */
export function createStoriesService(deps: StoriesDeps) {
  const { db, clock, city, bus, llm, log } = deps;
  const repo = createStoriesRepository(db);
  const timeZone = city.timeZone;

  /** The story as this viewer may see it: hidden ones are not found except by admins. */
  async function visibleStory(viewer: UserRow, id: string) {
    const row = await repo.findWithState(id, viewer.id);
    if (!row || (row.hiddenAt && !isAdmin(viewer))) throw notFound('Story not found');
    return row;
  }

  async function storyFor(viewer: UserRow, id: string): Promise<Story> {
    return toStory(await visibleStory(viewer, id), { admin: isAdmin(viewer) });
  }

  async function places(): Promise<Place[]> {
    const rows = await repo.pastEvents(clock.now());
    return [...placesFrom(rows, city), ...(deps.extraPlaces ? await deps.extraPlaces() : [])];
  }

  /** Asks the model for a story of the place; null (and a warning) when it fails or answers badly. */
  async function writeWithLlm(model: LlmClient, place: Place, category: GeneratedCategory): Promise<{ title: string; content: string } | null> {
    try {
      const answer = await model.chat(
        [
          {
            role: 'system',
            content: `You write ${CATEGORY_BRIEFS[category]} about one place in ${city.name} for a community stories page. Use only the place, venues, dates and events given; do not invent names of people, businesses or dates. 120 to 300 words, plain text, paragraphs separated by blank lines. Answer with a JSON object {"title": string, "content": string}.`,
          },
          { role: 'user', content: JSON.stringify(placeBrief(place, city)) },
        ],
        { json: true },
      );
      const parsed = LlmStory.safeParse(JSON.parse(answer));
      if (!parsed.success) {
        log.warn({ place: place.name, issues: parsed.error.issues.map((i) => i.message) }, 'the language model answered a story in the wrong shape; the built-in generator wrote it');
        return null;
      }
      return parsed.data;
    } catch (err) {
      log.warn({ place: place.name, err: err instanceof Error ? err.message : String(err) }, 'the language model could not write a story; the built-in generator wrote it');
      return null;
    }
  }

  return {
    /** GET /api/stories: newest first within the filter, the featured ones, and counts of everything visible. */
    async list(viewer: UserRow, query: StoriesQuery): Promise<StoriesResponse> {
      const admin = isAdmin(viewer);
      const category = query.category && query.category !== 'all' ? query.category : undefined;
      const [rows, featured, counts] = await Promise.all([
        repo.list({ category, includeHidden: admin, userId: viewer.id }),
        repo.list({ category, includeHidden: false, featuredOnly: true, userId: viewer.id }),
        repo.counts(admin),
      ]);
      return {
        stories: rows.map((r) => toStory(r, { admin })),
        categories: [...STORY_CATEGORIES],
        featured: featured.map((r) => toStory(r, { admin })),
        metadata: { totalStories: counts.total, aiGenerated: counts.ai, userSubmitted: counts.total - counts.ai },
      };
    },

    /** GET /api/stories/:id. */
    get: storyFor,

    /** POST /api/stories: saves a member's story and pays its points (none past the daily cap). */
    async create(viewer: UserRow, body: z.output<typeof StoryBody>): Promise<StoryCreated> {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const r = createStoriesRepository(tx);
        const row = await r.insert({ title: body.title, content: body.content, category: body.category, author: body.author, userId: viewer.id, createdAt: now });
        let paid: PayOutcome | null = null;
        try {
          paid = await payAward(
            tx,
            RULES.story_shared,
            {
              userId: viewer.id,
              activityType: RULES.story_shared.activityType,
              reason: 'story_shared',
              targetType: 'story',
              targetId: row.id,
              points: fixedPoints(RULES.story_shared),
              description: `Shared the story “${body.title}”`,
              idempotencyKey: `story_shared:${row.id}`,
              at: now,
            },
            timeZone,
          );
        } catch (err) {
          // Past the daily cap the story is still shared; it only earns nothing.
          if (!(err instanceof AppError && err.status === 429)) throw err;
        }
        return { id: row.id, paid };
      });
      announceAward(bus, viewer.id, result.paid);
      bus.publish('buzz', { actorId: viewer.id });
      const paid = result.paid?.status === 'paid' ? result.paid : null;
      return {
        story: await storyFor(viewer, result.id),
        pointsEarned: paid?.award.points ?? 0,
        // A badge pays nothing itself (a tier's figure is the total that reached it, not points earned).
        badges: (paid?.newBadges ?? []).map((b) => ({ title: b.title, points: 0 })),
        ...(paid ? {} : { message: `Daily limit reached: sharing stories earns points ${RULES.story_shared.dailyCap} times a day` }),
      };
    },

    /** POST /api/stories/:id/like: toggles, or sets when `liked` is given; one like per member. */
    async like(viewer: UserRow, id: string, liked: boolean | undefined): Promise<LikeResponse> {
      return db.transaction(async (tx) => {
        const r = createStoriesRepository(tx);
        const row = await r.findById(id);
        if (!row || (row.hiddenAt && !isAdmin(viewer))) throw notFound('Story not found');
        const want = liked ?? !(await r.isLiked(id, viewer.id));
        await r.setLike(id, viewer.id, want, clock.now());
        return { liked: want, likes: await r.recountLikes(id) };
      });
    },

    /** POST /api/stories/:id/view: counts once per member per local day (city time zone). */
    async view(viewer: UserRow, id: string): Promise<ViewResponse> {
      return db.transaction(async (tx) => {
        const r = createStoriesRepository(tx);
        const row = await r.findById(id);
        if (!row || (row.hiddenAt && !isAdmin(viewer))) throw notFound('Story not found');
        const counted = await r.addView(id, viewer.id, localDay(clock.now(), timeZone));
        return { counted, views: counted ? await r.incrementViews(id) : row.views };
      });
    },

    /** POST /api/stories/:id/report: once per member; the third report since the last review hides it. */
    async report(viewer: UserRow, id: string, reason: string | undefined): Promise<ReportResponse> {
      return db.transaction(async (tx) => {
        const r = createStoriesRepository(tx);
        const row = await r.findById(id);
        if (!row || (row.hiddenAt && !isAdmin(viewer))) throw notFound('Story not found');
        const now = clock.now();
        const added = await r.addReport(id, viewer.id, reason ?? '', now);
        let hidden = row.hiddenAt !== null;
        if (added && !hidden && (await r.countReportsAfter(id, row.reviewedAt)) >= REPORTS_TO_HIDE) {
          await r.update(id, { hiddenAt: now });
          hidden = true;
        }
        return { reported: true, hidden };
      });
    },

    /** POST /api/stories/:id/review (admin): restore a hidden story, or remove it for good. */
    async review(viewer: UserRow, id: string, action: ReviewBody['action']): Promise<ReviewResponse> {
      if (!(await repo.findById(id))) throw notFound('Story not found');
      if (action === 'remove') {
        await repo.delete(id);
        return { action, story: null };
      }
      await repo.update(id, { hiddenAt: null, reviewedAt: clock.now() });
      return { action, story: await storyFor(viewer, id) };
    },

    /** PATCH /api/stories/:id (admin): features or unfeatures a story. */
    async feature(viewer: UserRow, id: string, featured: boolean): Promise<Story> {
      if (!(await repo.update(id, { featured }))) throw notFound('Story not found');
      return storyFor(viewer, id);
    },

    /** The places the generator knows: neighbourhoods, venues of past events, quest nodes. */
    places,

    /**
     * Writes one story about a place (named, or the one least written about) in a category
     * (given, or chosen by the seed): with the language model when one is configured and
     * `engine` allows it, else (or when the model fails) with the built-in generator.
     */
    async generate(opts: GenerateBody & { engine?: 'auto' | 'built-in'; seed?: string; isDemo?: boolean; createdAt?: Date; featured?: boolean }, viewer?: UserRow): Promise<Story> {
      const now = clock.now();
      const seed = opts.seed ?? now.toISOString();
      const all = await places();
      let place: Place | undefined;
      if (opts.place) {
        const want = opts.place.toLowerCase();
        place = all.find((p) => p.name.toLowerCase() === want);
        if (!place) throw invalid(`place: no neighbourhood, venue or quest node is named "${opts.place}"`);
      } else {
        const titles = (await repo.generatedTitles()).map((t) => t.toLowerCase());
        const written = (p: Place) => titles.filter((t) => t.includes(p.name.toLowerCase())).length;
        // The least written-about first, then the richest in facts; the seed breaks the remaining tie.
        const ranked = [...all].sort((a, b) => written(a) - written(b) || b.events.length - a.events.length);
        const best = ranked.filter((p) => written(p) === written(ranked[0]!) && p.events.length === ranked[0]!.events.length);
        place = best[seedIndex(seed, best.length)]!;
      }
      const category: GeneratedCategory = opts.category ?? GENERATED_CATEGORIES[seedIndex(`${seed}|category`, GENERATED_CATEGORIES.length)]!;
      const model = opts.engine === 'built-in' ? null : llm;
      const fromModel = model ? await writeWithLlm(model, place, category) : null;
      const builtIn = async () => generateStory(place, city, category, seed);
      const written = fromModel ?? (await (deps.timer ? deps.timer.time('stories', builtIn) : builtIn()));
      const values: NewStoryRow = {
        title: written.title,
        content: written.content,
        category: category satisfies StoryCategory,
        author: GENERATED_AUTHOR,
        userId: null,
        aiGenerated: true,
        generator: fromModel && model ? model.model : BUILT_IN_GENERATOR,
        featured: opts.featured ?? false,
        isDemo: opts.isDemo ?? false,
        createdAt: opts.createdAt ?? now,
      };
      const row = await repo.insert(values);
      const withState = await repo.findWithState(row.id, viewer?.id ?? '00000000-0000-0000-0000-000000000000');
      return toStory(withState!, { admin: viewer ? isAdmin(viewer) : false });
    },

    /** The city's name and the service's clock, for the demo seeder. */
    cityName: city.name,
    now: () => clock.now(),

    /** Whether no story exists yet (the demo seeder writes only into an empty table). */
    isEmpty: () => repo.isEmpty(),

    /** Inserts invented demo stories (already marked isDemo by the caller). */
    insertDemo: (rows: NewStoryRow[]) => repo.insertMany(rows),
  };
}

/** A stable index in [0, n) from a seed string. */
function seedIndex(seed: string, n: number): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (Math.imul(h, 31) + seed.charCodeAt(i)) | 0;
  return Math.abs(h) % Math.max(1, n);
}

export type StoriesService = ReturnType<typeof createStoriesService>;
