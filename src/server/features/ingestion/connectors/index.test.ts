import { describe, expect, it } from 'vitest';
import { CONNECTORS, getConnector } from './index.ts';

describe('connector registry', () => {
  it('has the feed, page and CSV connectors under their ids', () => {
    for (const id of ['ical', 'rss', 'jsonld', 'csv'] as const) {
      expect(getConnector(id)?.id).toBe(id);
      expect(CONNECTORS[id]).toBe(getConnector(id));
    }
  });
});
