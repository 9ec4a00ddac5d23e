import { fetchSource, urlIssue } from '../fetch/fetch-source.ts';
import { decodeBody } from '../fetch/safe-fetch.ts';
import type { Connector } from '../ingestion.types.ts';
import { parseInSandbox } from '../parse/sandbox.ts';

/**
 * Undoes RFC 5545 line folding on the raw bytes. Folding is defined on octets, so a fold may
 * split a multi-byte UTF-8 character; unfolding after decoding would leave U+FFFD there.
 */
export function unfoldBytes(body: Buffer): Buffer {
  if (!body.includes(0x0a)) return body;
  const out = Buffer.allocUnsafe(body.length);
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b === 0x0d && body[i + 1] === 0x0a && (body[i + 2] === 0x20 || body[i + 2] === 0x09)) {
      i += 2;
      continue;
    }
    if (b === 0x0a && (body[i + 1] === 0x20 || body[i + 1] === 0x09)) {
      i += 1;
      continue;
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** iCalendar feeds (RFC 5545): fetched with the source's validators, parsed in the sandbox. */
export const icalConnector: Connector = {
  id: 'ical',
  check: (source) => urlIssue(source.url, 'an iCalendar source'),
  async run(source, ctx) {
    const got = await fetchSource(source, ctx, 'text/calendar, text/plain;q=0.8, */*;q=0.5');
    if (got.notModified) return { candidates: [], notModified: true, etag: got.etag, lastModified: got.lastModified };
    const parsed = await parseInSandbox('ical', {
      text: decodeBody(unfoldBytes(got.res.body), got.res.headers['content-type']),
      now: ctx.now,
      timeZone: ctx.timeZone,
      horizonDays: ctx.horizonDays,
      maxOccurrences: ctx.maxOccurrences,
    });
    return { candidates: parsed.candidates, notes: parsed.notes, etag: got.etag, lastModified: got.lastModified };
  },
};
