import { describe, expect, it } from 'vitest';
import { isSameEvent, titleSimilarity } from './dedupe.ts';

const at = (iso: string) => new Date(iso);
const ev = (title: string, start: string, venueName = 'Crystal Ballroom', lat: number | null = 45.5225, lng: number | null = -122.6838) => ({ title, start: at(start), venueName, lat, lng });

describe('deduplication', () => {
  it('merges the same event from two sources: similar title, start within 30 minutes, same venue', () => {
    expect(isSameEvent(ev('Jazz Night with the Blue Trio', '2026-12-05T03:00:00Z'), ev('Jazz night w/ Blue Trio!', '2026-12-05T03:15:00Z', 'The Crystal Ballroom'))).toBe(true);
    expect(isSameEvent(ev('Portland Night Market', '2026-12-05T01:00:00Z'), ev('Portland Night Market at the Waterfront', '2026-12-05T01:00:00Z'))).toBe(true);
  });

  it('merges when the venues are named differently but stand within 250 m', () => {
    expect(isSameEvent(ev('Salsa Social', '2026-12-05T03:00:00Z', 'Ballroom', 45.5225, -122.6838), ev('Salsa social', '2026-12-05T03:00:00Z', 'Crystal Hall', 45.5231, -122.684))).toBe(true);
  });

  it('never merges two occurrences of a recurring event', () => {
    expect(isSameEvent(ev('Tuesday Jazz Jam', '2026-12-02T03:00:00Z'), ev('Tuesday Jazz Jam', '2026-12-09T03:00:00Z'))).toBe(false);
  });

  it('never merges two different events at one venue and time', () => {
    expect(isSameEvent(ev('Pottery for beginners', '2026-12-05T03:00:00Z'), ev('Life drawing session', '2026-12-05T03:00:00Z'))).toBe(false);
  });

  it('never merges the same title at venues far apart', () => {
    expect(isSameEvent(ev('Open Mic Night', '2026-12-05T03:00:00Z', 'Mississippi Studios', 45.5502, -122.6756), ev('Open Mic Night', '2026-12-05T03:00:00Z', 'Alberta Rose', 45.559, -122.6454))).toBe(false);
  });

  it('needs a near-identical title when a venue is unknown', () => {
    expect(isSameEvent(ev('Holiday Makers Fair', '2026-12-05T18:00:00Z', '', null, null), ev('Holiday Makers Fair', '2026-12-05T18:00:00Z'))).toBe(true);
    expect(isSameEvent(ev('Holiday Fair', '2026-12-05T18:00:00Z', '', null, null), ev('Holiday Makers Market and Fair', '2026-12-05T18:00:00Z'))).toBe(false);
  });

  it('scores titles ignoring case, punctuation, accents and stop words', () => {
    expect(titleSimilarity('Café Concert', 'cafe concert!')).toBe(1);
    expect(titleSimilarity('The Jazz Night', 'Jazz Night')).toBe(1);
    expect(titleSimilarity('Chess club', 'Swim team')).toBeLessThan(0.3);
  });
});
