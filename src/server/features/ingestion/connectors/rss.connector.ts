import { fetchSource, urlIssue } from '../fetch/fetch-source.ts';
import type { Connector } from '../ingestion.types.ts';
import { parseInSandbox } from '../parse/sandbox.ts';

/** RSS 2.0 / RSS 1.0 / Atom feeds of events, parsed in the sandbox. */
export const rssConnector: Connector = {
  id: 'rss',
  check: (source) => urlIssue(source.url, 'an RSS source'),
  async run(source, ctx) {
    const got = await fetchSource(source, ctx, 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5');
    if (got.notModified) return { candidates: [], notModified: true, etag: got.etag, lastModified: got.lastModified };
    const parsed = await parseInSandbox('feed', {
      text: got.res.text(),
      baseUrl: got.res.url,
      now: ctx.now,
      timeZone: ctx.timeZone,
      horizonDays: ctx.horizonDays,
      maxOccurrences: ctx.maxOccurrences,
    });
    return { candidates: parsed.candidates, notes: parsed.notes, etag: got.etag, lastModified: got.lastModified };
  },
};
