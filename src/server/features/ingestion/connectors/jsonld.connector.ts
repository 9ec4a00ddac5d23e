import { fetchSource, urlIssue } from '../fetch/fetch-source.ts';
import type { Connector } from '../ingestion.types.ts';
import { parseInSandbox } from '../parse/sandbox.ts';

/** Web pages with schema.org Event data (JSON-LD, microdata), parsed in the sandbox. */
export const jsonldConnector: Connector = {
  id: 'jsonld',
  check: (source) => urlIssue(source.url, 'a JSON-LD source'),
  async run(source, ctx) {
    const got = await fetchSource(source, ctx, 'text/html, application/xhtml+xml, application/ld+json;q=0.9, */*;q=0.5');
    if (got.notModified) return { candidates: [], notModified: true, etag: got.etag, lastModified: got.lastModified };
    let text = got.res.text();
    // A bare JSON-LD document (application/ld+json) is read as one script block.
    if (/json/i.test(got.res.headers['content-type'] ?? '') || /^\s*[[{]/.test(text)) {
      text = `<script type="application/ld+json">${text.replace(/<\/script/gi, '<\\/script')}</script>`;
    }
    const parsed = await parseInSandbox('jsonld', {
      text,
      baseUrl: got.res.url,
      now: ctx.now,
      timeZone: ctx.timeZone,
      horizonDays: ctx.horizonDays,
      maxOccurrences: ctx.maxOccurrences,
    });
    return { candidates: parsed.candidates, notes: parsed.notes, etag: got.etag, lastModified: got.lastModified };
  },
};
