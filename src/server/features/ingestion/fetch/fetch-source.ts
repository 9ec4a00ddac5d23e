// Fetching a source's URL for a connector: conditional request from the last run's validators,
// 304 handling, and a clear error for anything but a success.

import { SourceError, type ConnectorContext, type FetchResult, type SourceIssue, type SourceSpec } from '../ingestion.types.ts';

export type SourceFetch =
  | { notModified: true; etag: string | null; lastModified: string | null }
  | { notModified: false; res: FetchResult; etag: string | null; lastModified: string | null };

/** A source read through fetchSource needs its URL (it throws 'the source has no URL' without one); `source` says whose: "an iCalendar source". */
export function urlIssue(url: string | null, source: string): SourceIssue | undefined {
  return url ? undefined : { path: 'url', message: `url is required for ${source}` };
}

export async function fetchSource(source: SourceSpec, ctx: ConnectorContext, accept: string, url = source.url): Promise<SourceFetch> {
  if (!url) throw new SourceError('the source has no URL');
  const target = url.replace(/^webcals?:\/\//i, 'https://');
  const headers: Record<string, string> = { accept };
  if (source.etag) headers['if-none-match'] = source.etag;
  if (source.lastModified) headers['if-modified-since'] = source.lastModified;
  let res: FetchResult;
  try {
    res = await ctx.fetch(target, { headers });
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`could not fetch the source: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status === 304) {
    return { notModified: true, etag: res.headers.etag ?? source.etag ?? null, lastModified: res.headers['last-modified'] ?? source.lastModified ?? null };
  }
  if (res.status < 200 || res.status >= 300) throw new SourceError(`the server answered HTTP ${res.status}${describeStatus(res.status)}`);
  return { notModified: false, res, etag: res.headers.etag ?? null, lastModified: res.headers['last-modified'] ?? null };
}

function describeStatus(status: number): string {
  const known: Record<number, string> = { 401: 'unauthorised', 403: 'forbidden', 404: 'not found', 410: 'gone', 429: 'too many requests', 500: 'server error', 502: 'bad gateway', 503: 'unavailable', 504: 'gateway timeout' };
  return known[status] ? ` (${known[status]})` : '';
}
