import { describe, expect, it } from 'vitest';
import { PORTLAND } from '../../city.ts';
import { factsOf, generateStory, type Place } from './story-generator.ts';

const at = (iso: string) => new Date(iso);

/** Alberta Arts with four past events: two Saturdays of Arts at one gallery, a Music night and a Food market. */
const ALBERTA: Place = {
  name: 'Alberta Arts',
  kind: 'neighbourhood',
  neighbourhood: 'Alberta Arts',
  lat: 45.559,
  lng: -122.6454,
  events: [
    { title: 'Last Thursday Art Walk', start: at('2026-03-07T03:00:00Z'), category: 'Arts', venue: 'Ochre Gallery' },
    { title: 'Printmaking Open Studio', start: at('2026-04-11T19:00:00Z'), category: 'Arts', venue: 'Ochre Gallery' },
    { title: 'Porch Jazz Night', start: at('2026-05-09T02:30:00Z'), category: 'Music', venue: 'The Tin Porch' },
    { title: 'Alberta Night Market', start: at('2026-08-15T01:00:00Z'), category: 'Food', venue: 'Ochre Gallery' },
  ],
};
const SELLWOOD: Place = { name: 'Sellwood', kind: 'neighbourhood', neighbourhood: 'Sellwood', lat: 45.4651, lng: -122.6512, events: [] };

describe('the built-in story generator', () => {
  it('derives the facts of a place from its position and its past events', () => {
    const f = factsOf(ALBERTA, PORTLAND);
    expect(f.direction).toBe('north-east');
    expect(f.distance).toMatch(/^3\.\d miles$/);
    expect(f.eventCount).toBe('4');
    expect(f.firstTitle).toBe('Last Thursday Art Walk');
    expect(f.firstDate).toBe('March 6, 2026'); // 19:00 in Portland, the day before in UTC
    expect(f.topCategory).toBe('arts');
    expect(f.topVenue).toBe('Ochre Gallery');
    expect(f.topVenueCount).toBe('3');
    expect(f.gapDays).toBe('97');
  });

  it('writes each category from the place’s own facts', () => {
    const history = generateStory(ALBERTA, PORTLAND, 'history', 1);
    expect(history.content).toContain('Last Thursday Art Walk');
    expect(history.content).toContain('Ochre Gallery');
    expect(history.content).toMatch(/four events|Alberta Night Market/);
    const legend = generateStory(ALBERTA, PORTLAND, 'legend', 1);
    expect(legend.content).toContain('Alberta Arts');
    const mystery = generateStory(ALBERTA, PORTLAND, 'mystery', 1);
    expect(mystery.content).toContain('Alberta Arts');
    for (const s of [history, legend, mystery]) {
      expect(s.title.length).toBeGreaterThan(5);
      expect(s.content).not.toMatch(/\{|\}|\[|\]|undefined/);
    }
  });

  it('is deterministic for a seed and varies with the seed', () => {
    expect(generateStory(ALBERTA, PORTLAND, 'legend', 'x')).toEqual(generateStory(ALBERTA, PORTLAND, 'legend', 'x'));
    const variants = new Set(Array.from({ length: 12 }, (_, i) => generateStory(ALBERTA, PORTLAND, 'legend', i).content));
    expect(variants.size).toBeGreaterThan(6);
  });

  it('gives different places different stories, rooted in each place', () => {
    const a = generateStory(ALBERTA, PORTLAND, 'history', 7);
    const b = generateStory(SELLWOOD, PORTLAND, 'history', 7);
    expect(a.content).not.toEqual(b.content);
    expect(b.content).toContain('Sellwood');
    expect(b.content).not.toContain('Alberta');
    // With no past events it says so, and tells where the place is instead of inventing a past.
    expect(b.content).toMatch(/not yet recorded a gathering/);
    expect(b.content).toMatch(/south/);
  });

  it('writes every category of every demo neighbourhood without a gap in its grammar', () => {
    for (const n of PORTLAND.neighbourhoods) {
      const place: Place = { name: n.name, kind: 'neighbourhood', neighbourhood: n.name, lat: n.lat, lng: n.lng, events: n.name === 'Kerns' ? ALBERTA.events.slice(0, 1) : [] };
      for (const c of ['legend', 'history', 'mystery'] as const) {
        for (const seed of [1, 2, 3]) {
          const s = generateStory(place, PORTLAND, c, seed);
          expect(s.content.length).toBeGreaterThan(120);
          expect(s.content).not.toMatch(/\{|\}|\[|\]/);
        }
      }
    }
  });

  it('claims only what Townbeat recorded: a place’s history never begins with an event in the app', () => {
    // Downtown's only past event is tonight's concert: it starts Townbeat's record, not Downtown's history.
    const downtown: Place = {
      name: 'Downtown',
      kind: 'neighbourhood',
      neighbourhood: 'Downtown',
      lat: 45.5152,
      lng: -122.6784,
      events: [{ title: 'The Fernhill Sisters – Album Release Show', start: at('2026-11-28T04:00:00Z'), category: 'Music', venue: 'Crystal Hall' }],
    };
    const places = [downtown, { ...downtown, events: [...downtown.events, { title: 'Pioneer Square Tree Lighting', start: at('2026-11-28T06:00:00Z'), category: 'Other', venue: 'Pioneer Square' }] }, ALBERTA];
    for (const place of places) {
      const first = factsOf(place, PORTLAND).firstTitle!;
      for (const c of ['history', 'mystery'] as const) {
        for (let seed = 0; seed < 40; seed++) {
          const s = generateStory(place, PORTLAND, c, seed);
          const text = `${s.title}\n${s.content}`;
          expect(text).not.toMatch(/history (begins|began|starts)|began to gather|nothing before it|stayed so quiet|first event here|the only one here/i);
          // Whatever names the first event says it is the first Townbeat recorded.
          for (const sentence of s.content.split(/(?<=[.!?])\s+/)) if (sentence.includes(first)) expect(sentence).toMatch(/Townbeat/);
        }
      }
    }
  });
});
