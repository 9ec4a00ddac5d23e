// Gancio (a self-hosted community agenda): an instance's public events API, no token needed.
//
// source.config:
//   {
//     tags?: string[];        // only events with one of these tags
//     pageSize?: number;      // events per request (1..200, default 50)
//   }
// source.url: the instance, e.g. https://gancio.example.org (required).
//
// GET {instance}/api/events?start=<unix now>&end=<unix now + horizon>&show_recurrent=true&max=&page=N
// → a JSON array of events: id, title, slug, start_datetime / end_datetime (unix seconds),
// media[0].url (a file under {instance}/media/), tags (strings), place { name, address,
// latitude, longitude }. The list leaves out descriptions. Pages count from 0 and run until a
// short page (at most 20); a page that repeats events already seen (an instance too old to page)
// ends the run. Events at the place Gancio calls "online" have no venue.

import { z } from 'zod';
import {
  SourceError,
  type CandidateEvent,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type SourceSpec,
} from '../ingestion.types.ts';
import { apiUrlIssue, arr, configIssue, createApiRun, num, readConfig, rec, requestJson, str } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'a Gancio source';
const PROVIDER = 'Gancio';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;

const configSchema = z.object({
  tags: z.array(z.string().trim().min(1)).min(1).optional(),
  pageSize: z.number().int().min(1).max(200).optional(),
});

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const instance = instanceBase(source.url);
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const max = config.pageSize ?? 50;
  const run = createApiRun();
  const seen = new Set<string>();

  let page = 0;
  for (; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({
      start: String(Math.floor(ctx.now.getTime() / 1000)),
      end: String(Math.floor(horizonEnd.getTime() / 1000)),
      show_recurrent: 'true',
      max: String(max),
      page: String(page),
    });
    if (config.tags) q.set('tags', config.tags.join(','));
    const events = await requestJson(ctx, PROVIDER, `${instance}/api/events?${q.toString()}`, { notJsonHint: '; is the source URL a Gancio instance?' });
    if (!Array.isArray(events)) throw new SourceError(`${PROVIDER} answered JSON that is not a list of events`);

    let fresh = 0;
    for (const raw of events) {
      const candidate = toCandidate(raw, instance);
      if (!candidate) {
        run.unreadable(raw);
        continue;
      }
      if (seen.has(candidate.externalId)) continue;
      seen.add(candidate.externalId);
      fresh++;
      if (inWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    if (events.length < max || fresh === 0) break;
  }
  if (page === MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'gancio');

function instanceBase(url: string | null): string {
  if (!url) throw new SourceError('gancio: the source URL (the instance) is required');
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/(api|event)(\/.*)?$/, '').replace(/\/+$/, '')}`;
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
}

function toCandidate(raw: unknown, instance: string): CandidateEvent | undefined {
  const e = rec(raw);
  const id = num(e?.id) ?? str(e?.id);
  const title = str(e?.title);
  const startSeconds = num(e?.start_datetime);
  if (!e || id === undefined || !title || startSeconds === undefined) return undefined;

  const candidate: CandidateEvent = { externalId: String(id), title, start: new Date(startSeconds * 1000) };
  const endSeconds = num(e.end_datetime);
  if (endSeconds !== undefined && endSeconds >= startSeconds) candidate.end = new Date(endSeconds * 1000);
  const description = str(e.description);
  if (description) candidate.description = description;
  candidate.url = `${instance}/event/${encodeURIComponent(str(e.slug) ?? String(id))}`;
  const media = str(rec(arr(e.media)[0])?.url);
  if (media) candidate.imageUrl = /^https?:\/\//i.test(media) ? media : `${instance}/media/${media.replace(/^\/+/, '')}`;

  const place = rec(e.place);
  const name = str(place?.name);
  if (place && name && name.toLowerCase() !== 'online') {
    candidate.venueName = name;
    const address = str(place.address);
    if (address && address.toLowerCase() !== name.toLowerCase()) candidate.address = address;
    const lat = num(place.latitude);
    const lng = num(place.longitude);
    if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)) {
      candidate.lat = lat;
      candidate.lng = lng;
    }
  }
  const tags = arr(e.tags)
    .map((t) => str(t) ?? str(rec(t)?.tag))
    .filter((t): t is string => Boolean(t));
  if (tags.length) candidate.categories = [...new Set(tags)];
  return candidate;
}

function inWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  return c.start.getTime() <= horizonEnd.getTime() && (c.end ?? c.start).getTime() >= now.getTime();
}

/** What a run needs of the source (checked when it is saved): its options, and the instance (instanceBase). */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE, 'the instance, e.g. https://gancio.example.org');

export const gancioConnector: Connector = { id: 'gancio', run, check };
