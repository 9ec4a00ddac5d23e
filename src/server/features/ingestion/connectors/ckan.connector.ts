// CKAN DataStore: the records of one datastore resource, read as events through a field mapping
// (the same mapping, and the same reading of values, as the Socrata connector).
//
// source.config:
//   {
//     resourceId: string;     // the resource's id (a UUID) or alias
//     mapping: { title, start, end?, startTime?, endTime?, venue?, address?, lat?, lng?, location?,
//                url?, description?, id?, price?, category?, image?, status? };   // column names
//     timeZone?: string;      // the zone of timestamps without offset (default: the city's)
//     filters?: Record<string, string | number | boolean>;   // datastore_search exact-match filters
//     q?: string;             // datastore_search full-text query
//     apiKey?: string;        // sent as Authorization, for private resources
//     pageSize?: number;      // records per request (1..32000, default 1000)
//   }
// source.url: the CKAN site (required), e.g. https://data.example.gov; anything from /api/ or
// /dataset/ on is dropped.
//
// GET {site}/api/3/action/datastore_search?resource_id=&limit=&offset=&sort="<start>" asc
// → { success, result: { records, total, fields } }. DataStore has no range filter, so the date
// window is applied here: pages run until result.total (at most 20), and stop early once a
// timestamp-typed start column sorts past the horizon.

import { z } from 'zod';
import {
  SourceError,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type SourceSpec,
} from '../ingestion.types.ts';
import { inOpenDataWindow, isTimeZone, mapOpenDataRecord, openDataMappingSchema } from './socrata.connector.ts';
import { apiUrlIssue, configIssue, createApiRun, readConfig, reasonSuffix, rec, requestJson } from './api.ts';

/** How the admin API names a source of this connector. */
const SOURCE = 'a CKAN source';
const PROVIDER = 'CKAN';
const MAX_PAGES = 20;
const DAY_MS = 86_400_000;
const SORTABLE_TYPES = new Set(['timestamp', 'timestamptz', 'date']);

const ckanField = z
  .string()
  .trim()
  .min(1)
  .regex(/^[^"]+$/, 'must be a column name (no double quotes)');

const configSchema = z.object({
  resourceId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a resource id or alias'),
  mapping: openDataMappingSchema(ckanField),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as America/Chicago').optional(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  q: z.string().trim().min(1).optional(),
  apiKey: z.string().trim().min(1).optional(),
  pageSize: z.number().int().min(1).max(32_000).optional(),
});

async function run(source: SourceSpec, ctx: ConnectorContext): Promise<ConnectorResult> {
  const config = parseConfig(source.config);
  const site = siteBase(source.url);
  const zone = config.timeZone ?? ctx.timeZone;
  const horizonEnd = new Date(ctx.now.getTime() + ctx.listAheadDays * DAY_MS);
  const limit = config.pageSize ?? 1000;
  const { mapping } = config;
  const headers: Record<string, string> = config.apiKey ? { authorization: config.apiKey } : {};

  const run = createApiRun();
  let offset = 0;
  let page = 0;
  for (; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({ resource_id: config.resourceId, limit: String(limit), offset: String(offset), sort: `${identifier(mapping.start)} asc` });
    if (config.filters) q.set('filters', JSON.stringify(config.filters));
    if (config.q) q.set('q', config.q);
    const result = await search(ctx, `${site}/api/3/action/datastore_search?${q.toString()}`, headers);
    const records = Array.isArray(result.records) ? result.records : [];

    let lastStart: Date | undefined;
    for (const record of records) {
      const fields = rec(record);
      const candidate = fields && mapOpenDataRecord(fields, mapping, zone);
      if (!candidate) {
        run.unreadable(record);
        continue;
      }
      lastStart = candidate.start;
      if (inOpenDataWindow(candidate, ctx.now, horizonEnd)) run.keep(candidate);
    }
    offset += records.length;
    const total = typeof result.total === 'number' ? result.total : undefined;
    if (records.length < limit || (total !== undefined && offset >= total)) break;
    if (lastStart && lastStart.getTime() > horizonEnd.getTime() && sortsByTime(result.fields, mapping.start)) break;
  }
  if (page === MAX_PAGES) run.pageLimit(MAX_PAGES);
  return run.result();
}

const parseConfig = (input: Record<string, unknown>) => readConfig(configSchema, input, 'ckan');

/** The CKAN site root, from the source URL (which may point into /api/ or at a dataset page). */
function siteBase(url: string | null): string {
  if (!url) throw new SourceError('ckan: the source URL (the CKAN site) is required');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(`${PROVIDER}: the source URL is not a URL`);
  }
  const path = parsed.pathname.replace(/\/(api|dataset)(\/.*)?$/, '').replace(/\/+$/, '');
  return `${parsed.origin}${path}`;
}

/** Column names with anything but letters, digits and _ are quoted for the sort clause. */
const identifier = (column: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(column) ? column : `"${column}"`);

function sortsByTime(fields: unknown, column: string): boolean {
  if (!Array.isArray(fields)) return false;
  const field = fields.find((f): f is { id: string; type?: unknown } => Boolean(f) && typeof f === 'object' && (f as { id?: unknown }).id === column);
  return typeof field?.type === 'string' && SORTABLE_TYPES.has(field.type.toLowerCase());
}

async function search(ctx: ConnectorContext, url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const body = rec(await requestJson(ctx, PROVIDER, url, { headers, failure: (json) => ({ reason: ckanError(json) }) }));
  if (body?.success !== true) throw new SourceError(`${PROVIDER} datastore_search failed${reasonSuffix(ckanError(body)) || ': no success flag'}`);
  const result = rec(body.result);
  if (!result) throw new SourceError(`${PROVIDER} answered without a result`);
  return result;
}

/** CKAN errors: { "success": false, "error": { "__type": "Not Found Error", "message": "..." } } */
function ckanError(body: unknown): string | undefined {
  const error = rec(rec(body)?.error);
  return typeof error?.message === 'string' ? error.message : typeof error?.__type === 'string' ? error.__type : undefined;
}

/** What a run needs of the source (checked when it is saved): the resource and its mapping, and the site (siteBase). */
const check: Connector['check'] = ({ url, config }) => configIssue(configSchema, config, SOURCE) ?? apiUrlIssue(url, SOURCE, 'the CKAN site, e.g. https://data.example.gov');

export const ckanConnector: Connector = { id: 'ckan', run, check };
