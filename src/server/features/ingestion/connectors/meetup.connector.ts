// Meetup GraphQL API: a group's upcoming (and cancelled) events.
//
// source.config:
//   {
//     token: string;          // an OAuth access token, sent as "Authorization: Bearer <token>"
//     groupUrlname: string;   // the group's URL name: meetup.com/<groupUrlname>/
//     pageSize?: number;      // events per request (1..200, default 50)
//   }
// source.url: the GraphQL endpoint (default https://api.meetup.com/gql-ext, the endpoint of
// Meetup's current API guide); a meetup.com web page there is ignored.
//
// POST {endpoint} { query, variables } asking groupByUrlname(urlname).events(first, after,
// filter: { status: [UPCOMING, CANCELLED], afterDateTime: now, beforeDateTime: now + horizon }).
// Pages follow pageInfo.hasNextPage / endCursor (at most 20). Each event: dateTime carries its UTC
// offset; the end is dateTime + duration (ISO 8601); venues[0] unless venueType is "online" (whose
// coordinates are a placeholder); feeSettings null means free, else feeSettings.amount/currency;
// rsvps.totalCount; status "CANCELLED".

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
const SOURCE = 'a Meetup source';
const PROVIDER = 'Meetup';
const DEFAULT_ENDPOINT = 'https://api.meetup.com/gql-ext';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;

const GROUP_EVENTS_QUERY = `query TownbeatGroupEvents($urlname: String!, $first: Int!, $after: String, $from: DateTime, $to: DateTime) {
  groupByUrlname(urlname: $urlname) {
    id
    name
    events(first: $first, after: $after, filter: { status: [UPCOMING, CANCELLED], afterDateTime: $from, beforeDateTime: $to }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id
          title
          eventUrl
          status
          dateTime
          duration
          description
          venues { id name address city state postalCode country lat lon venueType }
          rsvps(first: 1) { totalCount }
          featuredEventPhoto { id baseUrl }
          feeSettings { required amount currency }
        }
      }
    }
  }
}`;

const configSchema = z.object({
  token: z.string().trim().min(1),
  groupUrlname: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be the group URL name (meetup.com/<name>/)'),
  pageSize: z.number().int().min(1).max(200).optional(),
});

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const endpoint = apiEndpoint(source.url);
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const run = createApiRun();
  let after: string | null = null;

  let page = 0;
  for (; page < MAX_PAGES; page++) {
    const variables = { urlname: config.groupUrlname, first: config.pageSize ?? 50, after, from: ctx.now.toISOString(), to: horizonEnd.toISOString() };
    const data = await graphql(ctx, endpoint, config.token, variables);
    const group = rec(data.groupByUrlname);
    if (!group) throw new SourceError(`${PROVIDER} group "${config.groupUrlname}" was not found`);
    const events = rec(group.events);
    const edges = arr(events?.edges);
    for (const edge of edges) {
      const candidate = toCandidate(rec(edge)?.node);
      if (!candidate) run.unreadable(rec(edge)?.node);
      else if (inWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    const pageInfo = rec(events?.pageInfo);
    const cursor = str(pageInfo?.endCursor);
    if (pageInfo?.hasNextPage !== true || !cursor || cursor === after || edges.length === 0) break;
    after = cursor;
  }
  if (page === MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'meetup');

function apiEndpoint(url: string | null): string {
  if (!url) return DEFAULT_ENDPOINT;
  try {
    const host = new URL(url).hostname;
    if (/^(www\.)?meetup\.com$/i.test(host)) return DEFAULT_ENDPOINT;
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
  return url;
}

function toCandidate(raw: unknown): CandidateEvent | undefined {
  const e = rec(raw);
  const id = str(e?.id);
  const title = str(e?.title);
  const start = readTimestamp(str(e?.dateTime));
  if (!e || !id || !title || !start) return undefined;

  const candidate: CandidateEvent = { externalId: id, title, start };
  const duration = durationMs(str(e.duration));
  if (duration !== undefined) candidate.end = new Date(start.getTime() + duration);
  const description = str(e.description);
  if (description) candidate.description = description;
  const url = str(e.eventUrl);
  if (url) candidate.url = url;
  const photo = rec(e.featuredEventPhoto);
  const photoBase = str(photo?.baseUrl);
  const photoId = str(photo?.id);
  if (photoBase && photoId) candidate.imageUrl = `${photoBase.replace(/\/?$/, '/')}${photoId}/676x380.webp`;

  const venue = rec(arr(e.venues)[0]);
  if (venue && str(venue.venueType)?.toLowerCase() !== 'online') {
    const name = str(venue.name);
    if (name) candidate.venueName = name;
    const address = [str(venue.address), str(venue.city), [str(venue.state), str(venue.postalCode)].filter(Boolean).join(' ')].filter(Boolean);
    if (address.length) candidate.address = address.join(', ');
    const lat = num(venue.lat);
    const lng = num(venue.lon);
    if (lat !== undefined && lng !== undefined && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)) {
      candidate.lat = lat;
      candidate.lng = lng;
    }
  }

  if (e.feeSettings === null) {
    candidate.isFree = true;
    candidate.price = 0;
  } else {
    const fee = rec(e.feeSettings);
    const amount = num(fee?.amount);
    if (amount !== undefined && amount >= 0) {
      candidate.price = amount;
      if (amount === 0) candidate.isFree = true;
    }
    const currency = str(fee?.currency);
    if (currency) candidate.currency = currency;
  }
  const going = num(rec(e.rsvps)?.totalCount);
  if (going !== undefined) candidate.attendeeCount = going;
  if (str(e.status)?.toUpperCase() === 'CANCELLED') candidate.cancelled = true;
  return candidate;
}

/** ISO 8601 durations as Meetup writes them: PT2H, PT1H30M, PT30H, P1DT2H. */
function durationMs(iso: string | undefined): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso ?? '');
  if (!m || iso === 'P' || iso === 'PT') return undefined;
  const [, d, h, mi, s] = m;
  const ms = ((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(mi ?? 0)) * 60_000 + Number(s ?? 0) * 1000;
  return ms > 0 ? ms : undefined;
}

function inWindow(c: CandidateEvent, now: Date, horizonEnd: Date): boolean {
  return c.start.getTime() <= horizonEnd.getTime() && (c.end ?? c.start).getTime() >= now.getTime();
}

function graphql(ctx: ConnectorContext, endpoint: string, token: string, variables: Record<string, unknown>): Promise<Json> {
  return requestGraphql(ctx, PROVIDER, endpoint, {
    query: GROUP_EVENTS_QUERY,
    variables,
    headers: { authorization: `Bearer ${token}` },
    // Meetup says what went wrong in the error's extensions.code, often with HTTP 200.
    failure: (error) => {
      const code = str(rec(error?.extensions)?.code)?.toUpperCase();
      return { denied: code === 'UNAUTHENTICATED' || code === 'UNAUTHORIZED' || code === 'FORBIDDEN', rateLimited: code === 'RATE_LIMITED' };
    },
    answered: (data) => Boolean(rec(data.groupByUrlname)),
  });
}

/** What a run needs of the source (checked when it is saved): the token and the group; the URL, when given, is the API's. */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE);

export const meetupConnector: Connector = { id: 'meetup', run, check };
