import { describe, expect, it } from 'vitest';
import { haversineM } from '../../lib/geo.ts';
import { countBefore, estimateRows, histogram, matchShare, SKETCH_CELLS_PER_DEGREE, WORD_PRIOR_ROWS, WORD_SAMPLE_TRUSTED, type ListingSketch } from './listing-sketch.ts';

const HOUR = 3600_000;
const T0 = Date.UTC(2026, 10, 25, 0); // an hour boundary

/** A sketch of the given events, built as the repository's query groups them. */
function sketchOf(evts: { start: number; end: number; lat: number; lng: number; category: string; sourceType: string; neighbourhood?: string }[]): ListingSketch {
  const tally = <K>(keys: K[]) => {
    const m = new Map<K, number>();
    for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const cells = tally(evts.map((e) => `${Math.floor(e.lat * SKETCH_CELLS_PER_DEGREE)},${Math.floor(e.lng * SKETCH_CELLS_PER_DEGREE)}`));
  return {
    rows: evts.length,
    startHours: histogram([...tally(evts.map((e) => Math.floor(e.start / HOUR)))]),
    // An end on the hour is tallied in the hour before it, as the repository's query does.
    endHours: histogram([...tally(evts.map((e) => Math.ceil(e.end / HOUR) - 1))]),
    cells: [...cells].map(([k, n]) => {
      const [cy, cx] = k.split(',').map(Number) as [number, number];
      return { lat: (cy + 0.5) / SKETCH_CELLS_PER_DEGREE, lng: (cx + 0.5) / SKETCH_CELLS_PER_DEGREE, n };
    }),
    categories: tally(evts.map((e) => e.category)),
    sourceTypes: tally(evts.map((e) => e.sourceType)),
    neighbourhoods: tally(evts.flatMap((e) => (e.neighbourhood ? [e.neighbourhood.toLowerCase()] : []))),
  };
}

describe('countBefore', () => {
  const h = histogram([
    [10, 4],
    [12, 6],
    [11, 2],
  ]);
  it('counts whole hours before an instant, and its own hour by the share gone', () => {
    expect(countBefore(h, 10 * HOUR)).toBe(0);
    expect(countBefore(h, 11 * HOUR)).toBe(4);
    expect(countBefore(h, 11.5 * HOUR)).toBe(5);
    expect(countBefore(h, 12 * HOUR)).toBe(6);
    expect(countBefore(h, 13 * HOUR)).toBe(12);
    expect(countBefore(h, 99 * HOUR)).toBe(12);
    expect(countBefore(h, 0)).toBe(0);
    expect(countBefore(histogram([]), 5 * HOUR)).toBe(0);
  });
});

describe('estimateRows', () => {
  // 2,000 events: one every 30 minutes for 1,000 hours, on a line of places 200 m apart going north.
  const evts = Array.from({ length: 2000 }, (_, i) => ({
    start: T0 + i * 30 * 60_000,
    end: T0 + i * 30 * 60_000 + 2 * HOUR,
    lat: 45.4 + (i % 100) * 0.0018,
    lng: -122.65,
    category: i % 4 === 0 ? 'Music' : 'Food',
    sourceType: i % 10 === 0 ? 'ical' : 'rss',
    neighbourhood: i % 5 === 0 ? 'Hawthorne' : i % 5 === 1 ? 'hawthorne' : 'Downtown',
  }));
  const s = sketchOf(evts);
  const truth = (pred: (e: (typeof evts)[number]) => boolean) => evts.filter(pred).length;

  it('knows the share of each category and source, together taken as independent', () => {
    expect(estimateRows(s, {})).toBe(2000);
    expect(estimateRows(s, { categories: ['Music'] })).toBe(500);
    expect(estimateRows(s, { categories: ['Music', 'Food'] })).toBe(2000);
    expect(estimateRows(s, { categories: ['Nothing'] })).toBe(0);
    expect(estimateRows(s, { categories: ['Music'], sourceTypes: ['ical'] })).toBe(50);
  });

  it('knows the share of each neighbourhood, in any case', () => {
    expect(estimateRows(s, { neighbourhoods: ['HAWTHORNE'] })).toBe(truth((e) => e.neighbourhood.toLowerCase() === 'hawthorne'));
    expect(estimateRows(s, { neighbourhoods: ['Hawthorne', 'hawthorne', 'Downtown'] })).toBe(2000);
    expect(estimateRows(s, { neighbourhoods: ['Sellwood'] })).toBe(0);
  });

  it('counts the events overlapping a date window, within an hour at each end', () => {
    for (const [fromH, hours] of [
      [0, 6],
      [100, 24],
      [500.5, 168],
      [990, 100],
      [2000, 24],
    ] as const) {
      const from = T0 + fromH * HOUR;
      const to = from + hours * HOUR;
      const exact = truth((e) => e.end > from && e.start < to);
      const est = estimateRows(s, { from: new Date(from), to: new Date(to) });
      expect(Math.abs(est - exact)).toBeLessThanOrEqual(4); // two events start or end in each hour
    }
  });

  it('leaves out the events that end as a window opens or start as it closes', () => {
    // A day [midnight, next midnight): the day before's all-day events end as it opens, the day
    // after's start as it closes; ten events lie inside it.
    const day = T0 + 24 * HOUR;
    const allDay = (start: number) => ({ start, end: start + 24 * HOUR, lat: 45.52, lng: -122.68, category: 'Music', sourceType: 'ical' });
    const edges = sketchOf([
      ...Array.from({ length: 300 }, () => allDay(day - 24 * HOUR)),
      ...Array.from({ length: 300 }, () => allDay(day + 24 * HOUR)),
      ...Array.from({ length: 10 }, (_, i) => ({ ...allDay(day + i * HOUR), end: day + (i + 1) * HOUR })),
    ]);
    expect(estimateRows(edges, { from: new Date(day), to: new Date(day + 24 * HOUR) })).toBe(10);
  });

  it('counts the events in a circle from where they are', () => {
    for (const radiusM of [500, 2000, 5000, 50_000]) {
      const centre = { lat: 45.45, lng: -122.65 };
      const exact = truth((e) => haversineM(centre.lat, centre.lng, e.lat, e.lng) <= radiusM);
      const est = estimateRows(s, { near: { ...centre, radiusM } });
      // Cells on the edge count by the share of them inside: off by at most two cells' events.
      expect(Math.abs(est - exact)).toBeLessThanOrEqual(2 * 40 + 1);
      if (radiusM >= 5000) expect(est / exact).toBeGreaterThan(0.9);
    }
    expect(estimateRows(s, { near: { lat: 40, lng: -100, radiusM: 10_000 } })).toBe(0);
  });

  it('an empty listing matches nothing', () => {
    expect(estimateRows(sketchOf([]), { categories: ['Music'] })).toBe(0);
  });
});

describe('matchShare', () => {
  const at = (category: string, i: number) => ({ start: T0 + i * HOUR, end: T0 + (i + 2) * HOUR, lat: 45.52, lng: -122.68, category, sourceType: i % 2 ? 'ical' : 'rss' });
  // A listing of 800 Music and 200 Food events.
  const listing = sketchOf([...Array.from({ length: 800 }, (_, i) => at('Music', i)), ...Array.from({ length: 200 }, (_, i) => at('Food', i))]);

  it('reads a word that only Food events use as having no Music matches, where the listing says four in five', () => {
    const food = sketchOf(Array.from({ length: WORD_SAMPLE_TRUSTED }, (_, i) => at('Food', i)));
    expect(matchShare({ categories: ['Music'] }, listing, food)).toBe(0);
    expect(matchShare({ categories: ['Food'] }, listing, food)).toBe(1);
    // Other conditions still narrow: half the sampled matches come from each source.
    expect(matchShare({ categories: ['Food'], sourceTypes: ['ical'] }, listing, food)).toBeCloseTo(0.5, 5);
  });

  it('leans on the listing while the sample is small, and takes the listing alone without one', () => {
    const few = sketchOf(Array.from({ length: 4 }, (_, i) => at('Food', i)));
    expect(matchShare({ categories: ['Music'] }, listing, few)).toBeCloseTo((WORD_PRIOR_ROWS * 0.8) / (4 + WORD_PRIOR_ROWS), 5);
    expect(matchShare({ categories: ['Music'] }, listing, null)).toBeCloseTo(0.8, 5);
    expect(matchShare({ categories: ['Music'] }, listing, sketchOf([]))).toBeCloseTo(0.8, 5);
  });
});
