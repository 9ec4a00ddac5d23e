// Mobilizon (a federated, self-hosted events platform): an instance's public events through its
// GraphQL API, no token needed.
//
// source.config:
//   {
//     groupSlug?: string;     // only this group's events, e.g. "pdx_tool_library" (or
//                             // "name@other.instance" for a remote group the instance knows)
//     pageSize?: number;      // events per request (1..100, default 50)
//   }
// source.url: the instance, e.g. https://mobilizon.example.org (required).
//
// POST {instance}/api { query, variables }:
//   searchEvents(beginsOn: now, endsOn: now + horizon, page, limit) { total elements { ... } }
//   or group(preferredUsername: groupSlug) { organizedEvents(afterDatetime: now, page, limit) }
// Pages count from 1 and run until elements run short of the limit or reach total (at most 20).
// Each event: beginsOn / endsOn are UTC; physicalAddress { description (the venue), street,
// locality, postalCode, region, country, geom "lon;lat" }; tags { title }; category; picture.url;
// options.offers[].price for the lowest price; status CANCELLED.

import { z } from 'zod';
import { readTimestamp } from '../../../../contract/time.ts';
import {
  SourceError,
  type CandidateEvent,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type SourceSpec,
} from '../ingestion.types.ts';
import { apiUrlIssue, arr, configIssue, createApiRun, num, readConfig, rec, requestGraphql, str, type Json } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'a Mobilizon source';
const PROVIDER = 'Mobilizon';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;

const EVENT_FIELDS = `fragment TownbeatEvent on Event {
  id
  uuid
  url
  title
  description
  beginsOn
  endsOn
  status
  category
  onlineAddress
  picture { url }
  physicalAddress { description street locality postalCode region country geom }
  tags { slug title }
  options { offers { price priceCurrency url } }
  participantStats { participant }
}`;

const SEARCH_QUERY = `query TownbeatSearchEvents($beginsOn: DateTime, $endsOn: DateTime, $page: Int, $limit: Int) {
  searchEvents(beginsOn: $beginsOn, endsOn: $endsOn, page: $page, limit: $limit) {
    total
    elements { ...TownbeatEvent }
  }
}
${EVENT_FIELDS}`;

const GROUP_QUERY = `query TownbeatGroupEvents($slug: String!, $after: DateTime, $page: Int, $limit: Int) {
  group(preferredUsername: $slug) {
    organizedEvents(afterDatetime: $after, page: $page, limit: $limit) {
      total
      elements { ...TownbeatEvent }
    }
  }
}
${EVENT_FIELDS}`;

const configSchema = z.object({
  groupSlug: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]+(@[a-z0-9.-]+\.[a-z]{2,})?$/i, 'must be a group name such as pdx_tool_library (or name@instance)')
    .optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
});

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const endpoint = `${instanceBase(source.url)}/api`;
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const limit = config.pageSize ?? 50;
  const run = createApiRun();
  let seen = 0;

  let page = 1;
  for (; page <= MAX_PAGES; page++) {
    let list: Json | undefined;
    if (config.groupSlug) {
      const data = await graphql(ctx, endpoint, GROUP_QUERY, { slug: config.groupSlug, after: ctx.now.toISOString(), page, limit });
      const group = rec(data.group);
      if (!group) throw new SourceError(`${PROVIDER} group "${config.groupSlug}" was not found`);
      list = rec(group.organizedEvents);
    } else {
      const data = await graphql(ctx, endpoint, SEARCH_QUERY, { beginsOn: ctx.now.toISOString(), endsOn: horizonEnd.toISOString(), page, limit });
      list = rec(data.searchEvents);
    }
    if (!list) throw new SourceError(`${PROVIDER} answered without an event list`);
    const elements = arr(list.elements);
    for (const raw of elements) {
      const candidate = toCandidate(raw);
      if (!candidate) run.unreadable(raw);
      else if (inWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    seen += elements.length;
    const total = num(list.total);
    if (elements.length < limit || (total !== undefined && seen >= total)) break;
  }
  if (page > MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'mobilizon');

function instanceBase(url: string | null): string {
  if (!url) throw new SourceError('mobilizon: the source URL (the instance) is required');
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/(api|events)(\/.*)?$/, '').replace(/\/@.*$/, '').replace(/\/+$/, '')}`;
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
}

function toCandidate(raw: unknown): CandidateEvent | undefined {
  const e = rec(raw);
  const id = str(e?.uuid) ?? str(e?.id);
  const title = str(e?.title);
  const start = readTimestamp(str(e?.beginsOn));
  if (!e || !id || !title || !start) return undefined;

  const candidate: CandidateEvent = { externalId: id, title, start };
  const end = readTimestamp(str(e.endsOn));
  if (end && end.getTime() >= start.getTime()) candidate.end = end;
  const description = str(e.description);
  if (description) candidate.description = description;
  const url = str(e.url);
  if (url) candidate.url = url;
  const picture = str(rec(e.picture)?.url);
  if (picture) candidate.imageUrl = picture;

  const address = rec(e.physicalAddress);
  if (address) {
    const venue = str(address.description);
    if (venue) candidate.venueName = venue;
    const line = [str(address.street), [str(address.postalCode), str(address.locality)].filter(Boolean).join(' '), str(address.region), str(address.country)].filter(Boolean);
    if (line.length) candidate.address = line.join(', ');
    const geom = /^\s*(-?\d+(?:\.\d+)?)\s*;\s*(-?\d+(?:\.\d+)?)\s*$/.exec(str(address.geom) ?? '');
    if (geom) {
      const lng = Number(geom[1]);
      const lat = Number(geom[2]);
      if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)) {
        candidate.lat = lat;
        candidate.lng = lng;
      }
    }
  }

  const offers = arr(rec(e.options)?.offers).map(rec);
  const prices = offers.map((o) => num(o?.price)).filter((p): p is number => p !== undefined && p >= 0);
  if (prices.length) {
    candidate.price = Math.min(...prices);
    const highest = Math.max(...prices);
    if (highest > candidate.price) candidate.priceMax = highest;
    else if (highest === 0) candidate.isFree = true;
    const currency = str(offers.find((o) => num(o?.price) === candidate.price)?.priceCurrency);
    if (currency) candidate.currency = currency;
  }

  const categories = new Set<string>();
  const category = str(e.category);
  if (category && category.toUpperCase() !== 'MEETING') categories.add(category.toLowerCase().replace(/_/g, ' '));
  for (const tag of arr(e.tags)) {
    const title = str(rec(tag)?.title);
    if (title) categories.add(title);
  }
  if (categories.size) candidate.categories = [...categories];
  const participants = num(rec(e.participantStats)?.participant);
  if (participants !== undefined) candidate.attendeeCount = participants;
  if (str(e.status)?.toUpperCase() === 'CANCELLED') candidate.cancelled = true;
  return candidate;
}

function inWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  return c.start.getTime() <= horizonEnd.getTime() && (c.end ?? c.start).getTime() >= now.getTime();
}

function graphql(ctx: ConnectorContext, endpoint: string, query: string, variables: Record<string, unknown>): Promise<Json> {
  return requestGraphql(ctx, PROVIDER, endpoint, {
    query,
    variables,
    // Mobilizon errors: { "data": { "group": null }, "errors": [{ "message": "Group not found", "status_code": 404 }] }
    failure: (error) => {
      const status = num(error?.status_code);
      return { denied: status === 401 || status === 403, deniedStatus: status };
    },
    notJsonHint: '; is the source URL a Mobilizon instance?',
    answered: (data) => Object.values(data).some((v) => v !== null && v !== undefined),
  });
}

/** What a run needs of the source (checked when it is saved): its options, and the instance (instanceBase). */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE, 'the instance, e.g. https://mobilizon.example.org');

export const mobilizonConnector: Connector = { id: 'mobilizon', run, check };
