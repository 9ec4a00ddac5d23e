import { describe, expect, it } from 'vitest';
import { buildSimilarity, diversify, rank, utcOffsetMinutes, type RankEvent, type RankInput, type Signal } from './ranking.ts';

const NOW = Date.parse('2026-11-18T20:00:00Z');
const DAY = 86_400_000;
let n = 0;
function ev(o: Partial<RankEvent> = {}): RankEvent {
  n += 1;
  const start = o.start ?? NOW + 2 * DAY + n * 60_000;
  return { id: `e${n}`, title: `Event ${n}`, category: 'Music', venue: `Venue ${n}`, neighbourhood: 'Downtown', lat: 45.5152, lng: -122.6784, seriesKey: `series ${n}`, popularity: 1, ...o, start, end: o.end ?? start + 2 * 3600_000 };
}
const input = (o: Partial<RankInput>): RankInput => ({ now: NOW, signals: [], interests: null, candidates: [], similar: new Map(), exclude: new Set(), centre: { lat: 45.5152, lng: -122.6784 }, utcOffsetMin: -480, limit: 10, ...o });
const sig = (kind: Signal['kind'], event: RankEvent, daysAgo = 1): Signal => ({ kind, at: NOW - daysAgo * DAY, event });

describe('rank', () => {
  it('never returns excluded, acted-on or ended events', () => {
    const saved = ev();
    const dismissed = ev();
    const ended = ev({ start: NOW - 5 * 3600_000, end: NOW - 1 });
    const ok = ev();
    const out = rank(input({ signals: [sig('favorite', saved)], candidates: [saved, dismissed, ended, ok], exclude: new Set([dismissed.id]) }));
    expect(out.map((o) => o.eventId)).toEqual([ok.id]);
  });

  it('prefers the category, venue and similar events of what the user did, with the reason', () => {
    const jazz = ev({ title: 'Jazz Night', category: 'Music', venue: 'Blue Room' });
    const blues = ev({ title: 'Blues Jam', category: 'Music', venue: 'Blue Room' });
    const salsa = ev({ title: 'Salsa Social', category: 'Arts', venue: 'Dance Hall' });
    const sameVenue = ev({ category: 'Food', venue: 'Blue Room' });
    const alsoSaved = ev({ category: 'Tech', venue: 'Elsewhere', neighbourhood: 'Far' });
    const unrelated = ev({ category: 'Sports', venue: 'Gym', neighbourhood: 'Far', popularity: 50 });
    const out = rank(
      input({
        signals: [sig('checkin', jazz), sig('checkin', blues, 30), sig('favorite', salsa)],
        candidates: [sameVenue, alsoSaved, unrelated],
        similar: new Map([[salsa.id, [{ id: alsoSaved.id, w: 0.9 }]]]),
      }),
    );
    expect(out.map((o) => o.eventId).slice(0, 2).sort()).toEqual([sameVenue.id, alsoSaved.id].sort());
    expect(out.find((o) => o.eventId === alsoSaved.id)?.reason).toBe('People who saved Salsa Social also saved this');
    expect(out.find((o) => o.eventId === sameVenue.id)?.reason).toBe('You often go to Blue Room');
    expect(out.at(-1)?.eventId).toBe(unrelated.id);
  });

  it('says "often" only of more than one event: one is named', () => {
    const jazz = ev({ title: 'Jazz Night', category: 'Music', venue: 'Blue Room', neighbourhood: 'Buckman' });
    const sameVenue = ev({ category: 'Food', venue: 'Blue Room', neighbourhood: 'Kerns' });
    const sameArea = ev({ category: 'Food', venue: 'Elsewhere', neighbourhood: 'Buckman' });
    // The same event twice is still one event.
    const out = rank(input({ signals: [sig('checkin', jazz), sig('checkin', jazz, 30)], candidates: [sameVenue, sameArea] }));
    expect(out.find((o) => o.eventId === sameVenue.id)?.reason).toBe('At Blue Room, like Jazz Night');
    expect(out.find((o) => o.eventId === sameArea.id)?.reason).toBe('In Buckman, like Jazz Night');
  });

  it('leaves out the other dates of a series the user acted on: a reason never names the event itself', () => {
    const karaoke = (start: number) => ev({ title: 'Karaoke Thursdays', venue: 'The Lantern Cellar', neighbourhood: 'Buckman', seriesKey: 'karaoke thursdays|the lantern cellar', start });
    const saved = karaoke(NOW + DAY);
    const next = karaoke(NOW + 8 * DAY);
    const market = (start: number) => ev({ title: 'Farmers Market', category: 'Food', venue: 'Hawthorne Lot', neighbourhood: 'Hawthorne', seriesKey: 'farmers market|hawthorne lot', start });
    const looked = market(NOW + 2 * DAY);
    const marketNext = market(NOW + 9 * DAY);
    const other = ev({ title: 'Open Mic', category: 'Arts', venue: 'The Lantern Cellar', neighbourhood: 'Buckman' });
    const out = rank(input({ signals: [sig('favorite', saved), sig('view', looked)], candidates: [saved, next, looked, marketNext, other] }));
    expect(out.map((o) => o.eventId)).toEqual([other.id]);
    expect(out[0]!.reason).toBe('At The Lantern Cellar, like Karaoke Thursdays');
  });

  it('never gives a reason naming an event of the recommended one’s own title', () => {
    // The same title at another venue is another series, still recommended, but not "like" itself.
    const went = ev({ title: 'Trivia Night', venue: 'The Pub', neighbourhood: 'Buckman', seriesKey: 'trivia|pub' });
    const elsewhere = ev({ title: 'Trivia Night', category: 'Arts', venue: 'The Bar', neighbourhood: 'Buckman', seriesKey: 'trivia|bar', popularity: 0 });
    const out = rank(input({ signals: [sig('checkin', went)], candidates: [elsewhere] }));
    expect(out[0]?.eventId).toBe(elsewhere.id);
    expect(out[0]!.reason).not.toContain('Trivia Night');
    for (const o of out) expect(o.reason).not.toMatch(/Because you (saved|went to|looked at|scanned)/);
  });

  it('cold start: chosen interests first, else popular near the centre this week', () => {
    const far = ev({ category: 'Arts', popularity: 100, lat: 45.7, lng: -122.3, neighbourhood: 'Far' });
    const near = ev({ category: 'Arts', popularity: 100, neighbourhood: 'Alberta Arts' });
    const food = ev({ category: 'Food', popularity: 2 });
    const popular = rank(input({ candidates: [far, near, food] }));
    expect(popular[0]).toMatchObject({ eventId: near.id, reason: 'Popular in Alberta Arts this week' });
    const chosen = rank(input({ interests: { categories: ['Food'], neighbourhoods: [] }, candidates: [far, near, food] }));
    expect(chosen[0]).toMatchObject({ eventId: food.id, reason: 'Matches your interest in Food' });
  });

  it('gives only reasons that are true: nobody going is not popular, weeks away is not this week', () => {
    const lonely = ev({ popularity: 0, start: NOW + 20 * DAY, neighbourhood: 'Downtown' });
    const away = ev({ popularity: 0, start: NOW + 20 * DAY, neighbourhood: 'Gresham', lat: 45.498, lng: -122.431 });
    const later = ev({ popularity: 40, start: NOW + 20 * DAY, neighbourhood: 'Kerns', lat: 45.6, lng: -122.5 });
    const out = rank(input({ candidates: [lonely, away, later] }));
    const reason = (e: RankEvent) => out.find((o) => o.eventId === e.id)?.reason;
    expect(reason(lonely)).toBe('Near the city centre, in Downtown');
    expect(reason(away)).toBe('Coming up in Gresham');
    expect(reason(later)).toBe('Popular in Kerns');
  });

  it('says someone often goes to a place only of events they checked into there', () => {
    const jazz = ev({ title: 'Jazz Night', venue: 'Blue Room', neighbourhood: 'Buckman' });
    const blues = ev({ title: 'Blues Jam', venue: 'Blue Room', neighbourhood: 'Buckman' });
    const next = ev({ category: 'Food', venue: 'Blue Room', neighbourhood: 'Buckman' });
    // Went to one, scanned a flyer of another: not "often".
    const out = rank(input({ signals: [sig('checkin', jazz), sig('scan', blues)], candidates: [next] }));
    expect(out[0]?.reason).toBe('At Blue Room, like Jazz Night');
  });

  it('keeps at most half of the first 10 from one category when others exist', () => {
    const music = Array.from({ length: 12 }, () => ev({ category: 'Music', popularity: 100 }));
    const others = Array.from({ length: 6 }, (_, i) => ev({ category: ['Food', 'Arts', 'Tech'][i % 3]!, popularity: 1 }));
    const out = rank(input({ candidates: [...music, ...others], limit: 15 }));
    const cats = new Map([...music, ...others].map((e) => [e.id, e.category]));
    expect(out.slice(0, 10).filter((o) => cats.get(o.eventId) === 'Music')).toHaveLength(5);
    expect(out).toHaveLength(15);
    // Without others, the list is still full.
    expect(rank(input({ candidates: music, limit: 10 }))).toHaveLength(10);
  });
});

describe('diversify', () => {
  it('defers the sixth of a category past the first ten, keeping order otherwise', () => {
    const it_ = (id: string, category: string) => ({ id, e: { category, seriesKey: id } });
    const list = [...'abcdefg'].map((c) => it_(c, 'M')).concat([...'uvwxyz'].map((c) => it_(c, 'F')));
    expect(diversify(list, 13).map((x) => x.id).join('')).toBe('abcdeuvwxyfgz');
  });
});

describe('buildSimilarity', () => {
  it('pairs events kept by the same people, only towards targets, cosine-weighted', () => {
    const sim = buildSimilarity(
      [
        ['a', 'b'],
        ['a', 'b', 'c'],
        ['a', 'c'],
      ],
      (id) => id !== 'a',
    );
    // a and b: 2 shared, deg(a)=3, deg(b)=2 -> 2/sqrt(6)
    expect(sim.get('a')?.find((x) => x.id === 'b')?.w).toBeCloseTo(2 / Math.sqrt(6));
    expect(sim.get('b')?.some((x) => x.id === 'a')).toBe(false);
  });
});

describe('utcOffsetMinutes', () => {
  it('knows Portland in winter and summer', () => {
    expect(utcOffsetMinutes(new Date('2026-01-15T12:00:00Z'), 'America/Los_Angeles')).toBe(-480);
    expect(utcOffsetMinutes(new Date('2026-07-15T12:00:00Z'), 'America/Los_Angeles')).toBe(-420);
  });
});
