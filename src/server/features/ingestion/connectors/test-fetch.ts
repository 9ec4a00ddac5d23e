import type { ConnectorContext, SafeFetch } from '../ingestion.types.ts';

/**
 * A plain SafeFetch over Node's global fetch, for connector tests that talk to the local feed
 * server (the real safe fetch refuses loopback addresses).
 */
export const testFetch: SafeFetch = async (url, init) => {
  const r = await fetch(url, { method: init?.method, headers: init?.headers, body: init?.body });
  const body = Buffer.from(await r.arrayBuffer());
  return { status: r.status, url: r.url, headers: Object.fromEntries(r.headers), body, text: () => body.toString('utf8') };
};

/** A connector context for tests: the city is Portland, Oregon. */
export function testContext(now: Date, overrides: Partial<ConnectorContext> = {}): ConnectorContext {
  return { fetch: testFetch, now, timeZone: 'America/Los_Angeles', horizonDays: 60, listAheadDays: 60, maxOccurrences: 50, ...overrides };
}
