import { describe, expect, it } from 'vitest';
import { PORTLAND } from '../../city.ts';
import { analyse, composeTexts, difficultyOf, emotionalResonance, geocode, keyPhrases, sentiment, specificity, type KnownPlace } from './geosymbol-generator.ts';

const places: KnownPlace[] = [
  ...PORTLAND.neighbourhoods.map((n): KnownPlace => ({ name: n.name, kind: 'neighbourhood', lat: n.lat, lng: n.lng, neighbourhood: n.name })),
  { name: 'Laurelhurst Theater', kind: 'venue', lat: 45.5225, lng: -122.6254, neighbourhood: 'Kerns' },
  { name: 'Hawthorne Hall', kind: 'venue', lat: 45.512, lng: -122.63, neighbourhood: 'Hawthorne' },
];

describe('sentiment', () => {
  it('scores feeling words, flips a negation and strengthens an intensifier', () => {
    expect(sentiment('We laughed and danced, it was wonderful').label).toBe('positive');
    expect(sentiment('I cried at the funeral, so much grief').label).toBe('negative');
    expect(sentiment('It was not happy').score).toBeLessThan(0);
    expect(sentiment('very happy').score).toBeGreaterThan(sentiment('happy').score);
    expect(sentiment('The bus stop is on the corner').label).toBe('neutral');
    expect(sentiment('I loved that summer but I miss her and cried when she left').label).toBe('mixed');
  });

  it('maps the amount of feeling to a resonance between 0 and 10', () => {
    expect(emotionalResonance(sentiment('The bus stop is on the corner'), 7)).toBe(0);
    const strong = emotionalResonance(sentiment('I loved it, the happiest most wonderful amazing night, we laughed and cried with joy'), 15);
    expect(strong).toBeGreaterThan(7);
    expect(strong).toBeLessThanOrEqual(10);
  });
});

describe('keyPhrases', () => {
  it('picks content-word phrases, dropping stop words', () => {
    const p = keyPhrases('My grandmother taught me to ride a red bicycle along the river path every Sunday morning.');
    expect(p.length).toBeGreaterThan(0);
    expect(p.join(' | ')).toMatch(/red bicycle|river path|grandmother/);
    for (const phrase of p) expect(phrase).not.toMatch(/\b(the|a|to|me|my)\b/);
  });
});

describe('difficulty', () => {
  it('grows with length and specificity', () => {
    expect(difficultyOf(10, specificity('we sat on a bench'))).toBe('easy');
    const specific = 'On July 4 2019 at 9:30 we met Anna and Marco at Laurelhurst Theater, then walked to Hawthorne Hall with 12 friends.';
    expect(['hard', 'expert']).toContain(difficultyOf(60, specificity(specific)));
  });
});

describe('geocode', () => {
  it('matches neighbourhoods and venues by name, contained names and typos', () => {
    expect(geocode('Pearl District', places)?.name).toBe('Pearl District');
    expect(geocode('the corner of a park in sellwood', places)?.name).toBe('Sellwood');
    expect(geocode('Laurelhurst Theater on Burnside', places)).toMatchObject({ kind: 'venue', name: 'Laurelhurst Theater' });
    expect(geocode('Hawthrone', places)?.name).toBe('Hawthorne');
    expect(geocode('my kitchen', places)).toBeNull();
    expect(geocode('', places)).toBeNull();
  });
});

describe('composeTexts', () => {
  it('builds the symbol, story trigger and overlay from the facts and output type', () => {
    const input = { location: 'Sellwood', memory: 'We flew a red kite by the river and laughed all afternoon.', symbolicElements: 'red kite, river', userContext: '', outputType: 'Story Unlock' as const };
    const facts = analyse(input, places.find((p) => p.name === 'Sellwood')!, []);
    const texts = composeTexts(input, facts);
    expect(texts.symbol).toBe('The Red Kite Chronicle');
    expect(texts.story_trigger).toContain('Sellwood');
    expect(texts.AR_overlay).toContain('Red Kite');
    expect(facts.sentiment.label).toBe('positive');
    expect(facts.reward).toBeGreaterThanOrEqual(10);
  });
});
