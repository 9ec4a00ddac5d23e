import { z } from 'zod';
import type { CityConfig } from '../../../contract/city.ts';
import { MISSING_FIELDS_MESSAGE, type AddToHuntResponse, type CodexEntry, InjectBody, type InjectResponse, type PrivacyLevel, type ProcessedResponse, type VoteResponse } from '../../../contract/memories.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import type { LlmClient } from '../../lib/llm.ts';
import type { UserRow } from '../users/users.table.ts';
import { analyse, composeTexts, geocode, type ForgeFacts, type ForgeInput, type ForgeTexts, type KnownPlace } from './geosymbol-generator.ts';
import type { Generated } from './memories.mapper.ts';
import { toGeosymbol } from './memories.mapper.ts';
import { findNeighbourhood } from '../ingestion/pipeline/normalise.ts';
import { createMemoriesRepository } from './memories.repository.ts';

/** Venues weighed when geocoding a memory's place: the most alike by trigrams, ample for a typo or a longer text. */
const VENUE_CANDIDATES = 50;

export const BUILT_IN_GENERATOR = 'built-in';

/** What a language model must answer: the three texts, as JSON. */
const LlmTexts = z.object({
  symbol: z.string().trim().min(3).max(120),
  story_trigger: z.string().trim().min(10).max(500),
  AR_overlay: z.string().trim().min(10).max(500),
});

export interface MemoriesLog {
  warn(obj: object, msg: string): void;
}

const dateFmt = (d: Date, timeZone: string) => d.toLocaleDateString('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric' });

/** The memory forge: geosymbols from memories, privacy on every read, votes, and 'Add to Active Hunt'. */
export function createMemoriesService(deps: {
  db: Db;
  clock: Clock;
  city: CityConfig;
  llm: LlmClient | null;
  log: MemoriesLog;
  /** Times each built-in generation for the admin's AI status (model calls are timed by their client). */
  timer?: { time<T>(feature: 'memory_forge', fn: () => Promise<T>): Promise<T> };
}) {
  const { db, clock, city, llm, log } = deps;
  const repo = createMemoriesRepository(db);

  /** The city's neighbourhoods, the Quest Map's places, and the known venues most like a part of the text. */
  async function knownPlaces(locationText: string): Promise<KnownPlace[]> {
    const [venues, landmarks] = await Promise.all([repo.venuesLike(locationText, VENUE_CANDIDATES), repo.landmarks()]);
    const inNeighbourhood = (text: string, lat: number, lng: number) => findNeighbourhood(city, text, lat, lng)?.name ?? null;
    return [
      ...city.neighbourhoods.map((n): KnownPlace => ({ name: n.name, kind: 'neighbourhood', lat: n.lat, lng: n.lng, neighbourhood: n.name })),
      ...venues.map((v): KnownPlace => ({ name: v.name.trim(), kind: 'venue', lat: v.lat, lng: v.lng, neighbourhood: v.neighbourhood })),
      ...landmarks.flatMap((l) =>
        // An address that is only a street number and name is no place's name ("701 SW 6th Ave").
        [l.name, /^\d/.test(l.address.trim()) ? '' : l.address].filter((name) => name.trim()).map((name): KnownPlace => ({ name: name.trim(), kind: 'landmark', lat: l.lat, lng: l.lng, neighbourhood: inNeighbourhood(`${l.name} ${l.address}`, l.lat, l.lng) })),
      ),
    ];
  }

  async function codexFor(place: KnownPlace | null, phrases: string[]): Promise<CodexEntry[]> {
    const out: CodexEntry[] = [];
    if (place?.kind === 'venue') out.push({ kind: 'venue', name: place.name, detail: place.neighbourhood ? `A venue in ${place.neighbourhood}` : `A venue in ${city.name}` });
    if (place?.kind === 'landmark') out.push({ kind: 'venue', name: place.name, detail: `A place on the Quest Map${place.neighbourhood ? `, in ${place.neighbourhood}` : ''}` });
    if (place?.neighbourhood) out.push({ kind: 'neighbourhood', name: place.neighbourhood, detail: `${place.neighbourhood}, ${city.name}` });
    if (place) {
      const evs = place.kind === 'venue' ? await repo.eventsAt({ venue: place.name }, clock.now()) : place.neighbourhood ? await repo.eventsAt({ neighbourhood: place.neighbourhood }, clock.now()) : [];
      for (const e of evs) out.push({ kind: 'event', name: e.title, detail: `${e.startDate < clock.now() ? 'Held' : 'Coming'} ${dateFmt(e.startDate, city.timeZone)}${e.venueName ? ` at ${e.venueName}` : ''}` });
    }
    for (const p of phrases.slice(0, 3)) out.push({ kind: 'phrase', name: p, detail: 'A key phrase of the memory' });
    return out;
  }

  /** Asks the model to write the three texts from the facts; null when it fails or answers badly. */
  async function writeWithLlm(model: LlmClient, input: ForgeInput, facts: ForgeFacts): Promise<ForgeTexts | null> {
    try {
      const answer = await model.chat(
        [
          {
            role: 'system',
            content:
              `You turn a resident's place memory in ${city.name} into a geosymbol for a location game. Use only the facts given; invent no people, businesses or dates. ` +
              'Answer with a JSON object {"symbol": short evocative name (max 8 words), "story_trigger": one or two sentences telling a player what to do at the place to unlock the memory, "AR_overlay": one or two sentences describing what floats above the place in augmented reality}.',
          },
          {
            role: 'user',
            content: JSON.stringify({
              outputType: input.outputType,
              place: facts.place?.name ?? input.location,
              keyPhrases: facts.keyPhrases,
              symbolicElements: facts.elements,
              mood: facts.sentiment.label,
              themes: facts.themes,
              emotionalResonance: facts.resonance,
              difficulty: facts.difficulty,
              memory: input.memory,
              context: input.userContext,
            }),
          },
        ],
        { json: true },
      );
      const parsed = LlmTexts.safeParse(JSON.parse(answer));
      if (!parsed.success) {
        log.warn({ issues: parsed.error.issues.map((i) => i.message) }, 'the language model answered a geosymbol in the wrong shape; the built-in generator wrote it');
        return null;
      }
      return parsed.data;
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'the language model could not write a geosymbol; the built-in generator wrote it');
      return null;
    }
  }

  async function visible(id: string, viewerId: string | null) {
    const row = await repo.findVisible(id, viewerId);
    if (!row) throw notFound('Geosymbol not found');
    return row;
  }

  return {
    /** POST /api/geosymbol/inject: forges and stores a geosymbol from the author's memory. */
    async inject(user: UserRow, body: z.output<typeof InjectBody>): Promise<InjectResponse> {
      if (!body.location || !body.emotionalMemory) throw invalid(MISSING_FIELDS_MESSAGE);
      const input: ForgeInput = { location: body.location, memory: body.emotionalMemory, symbolicElements: body.symbolicElements, userContext: body.userContext, outputType: body.outputType };
      const place = geocode(input.location, await knownPlaces(input.location));
      const pre = analyse(input, place, []);
      const facts: ForgeFacts = { ...pre, codex: await codexFor(place, pre.keyPhrases) };
      const fromModel = llm ? await writeWithLlm(llm, input, facts) : null;
      const texts = fromModel ?? (deps.timer ? await deps.timer.time('memory_forge', async () => composeTexts(input, facts)) : composeTexts(input, facts));
      const generated: Generated = {
        difficulty: facts.difficulty,
        emotional_resonance: facts.resonance,
        story_trigger: texts.story_trigger,
        symbol: texts.symbol,
        reward: { points: facts.reward, description: `${facts.reward} points for finding ${texts.symbol}` },
        AR_overlay: texts.AR_overlay,
        linked_codex: facts.codex,
        keyPhrases: facts.keyPhrases,
        sentiment: facts.sentiment.label,
      };
      const row = await repo.insert({
        userId: user.id,
        locationText: input.location,
        latitude: place?.lat ?? null,
        longitude: place?.lng ?? null,
        placeName: place?.name ?? null,
        memory: input.memory,
        symbolicElements: input.symbolicElements,
        userContext: input.userContext,
        outputType: input.outputType,
        privacyLevel: body.privacyLevel,
        generated,
        generator: fromModel && llm ? llm.model : BUILT_IN_GENERATOR,
        createdAt: clock.now(),
      });
      return { geoSymbol: toGeosymbol(await visible(row.id, user.id), user.id) };
    },

    /**
     * GET /api/geosymbol/processed: the newest the caller may see. `community` lists public and
     * community ones (public only when signed out); `public` only public; `private` the caller's own.
     */
    async processed(viewer: UserRow | null, q: { privacyLevel: PrivacyLevel; limit: number }): Promise<ProcessedResponse> {
      const viewerId = viewer?.id ?? null;
      const levels = q.privacyLevel === 'public' ? ['public'] : q.privacyLevel === 'community' ? ['public', 'community'] : ['private'];
      if (q.privacyLevel === 'private' && !viewerId) return { symbols: [] };
      const rows = await repo.listVisible(viewerId, levels, q.limit, q.privacyLevel === 'private' ? (viewerId ?? undefined) : undefined);
      return { symbols: rows.map((r) => toGeosymbol(r, viewerId)) };
    },

    /** GET /api/geosymbol/:id: 404 when the caller may not see it. */
    async get(viewer: UserRow | null, id: string) {
      return toGeosymbol(await visible(id, viewer?.id ?? null), viewer?.id ?? null);
    },

    /** POST /api/geosymbol/:id/vote: toggles the viewer's vote on a memory they can see (never a private one). */
    async vote(viewer: UserRow, id: string): Promise<VoteResponse> {
      const row = await visible(id, viewer.id);
      if (row.privacyLevel === 'private') throw invalid('Private memories cannot be voted on');
      return repo.toggleVote(id, viewer.id, clock.now());
    },

    /** The author of a geosymbol, for the route guard of 'Add to Active Hunt'. */
    async authorOf(id: string): Promise<string | null> {
      return (await repo.findById(id))?.userId ?? null;
    },

    /**
     * 'Add to Active Hunt': makes the author's own, non-private, geocoded geosymbol a quest node at
     * the end of the first active hunt, in one transaction with linking the two.
     */
    async addToHunt(user: UserRow, id: string): Promise<AddToHuntResponse> {
      const result = await db.transaction(async (tx) => {
        const r = createMemoriesRepository(tx);
        const g = await r.lockById(id);
        if (!g) throw notFound('Geosymbol not found');
        if (g.nodeId) throw conflict('This memory is already part of a hunt');
        if (g.privacyLevel === 'private') throw invalid('Private memories cannot be added to a hunt: make it community or public first');
        if (g.latitude === null || g.longitude === null) throw invalid('This memory has no known place on the map, so it cannot become a hunt node');
        const hunt = await r.firstActiveHunt();
        if (!hunt) throw notFound('No hunt is active right now');
        const gen = g.generated as Generated;
        const node = await r.insertQuestNode({
          name: gen.symbol.slice(0, 120),
          description: gen.story_trigger,
          clue: gen.story_trigger,
          difficulty: gen.difficulty,
          category: 'Memory',
          points: gen.reward.points,
          address: g.placeName ?? g.locationText,
          latitude: g.latitude,
          longitude: g.longitude,
          requirements: ['memory', g.outputType.toLowerCase()],
          geosymbolId: g.id,
          createdBy: user.id,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
        const position = await r.appendHuntNode(hunt.id, node.id);
        await r.setNodeId(g.id, node.id);
        return { hunt, node: { ...node, position } };
      });
      return { ...result, geoSymbol: toGeosymbol(await visible(id, user.id), user.id) };
    },
  };
}

export type MemoriesService = ReturnType<typeof createMemoriesService>;
