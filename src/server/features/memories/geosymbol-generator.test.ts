import { describe, expect, it } from 'vitest';
import { PORTLAND } from '../../city.ts';
import { analyse, composeTexts, difficultyOf, emotionalResonance, geocode, keyPhrases, nounPhrases, sentiment, specificity, themesOf, type KnownPlace } from './geosymbol-generator.ts';

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

const forge = (location: string, memory: string, outputType: 'Memory Rune' | 'Story Unlock' = 'Memory Rune') => {
  const input = { location, memory, symbolicElements: '', userContext: '', outputType };
  const facts = analyse(input, null, []);
  return { facts, texts: composeTexts(input, facts) };
};

describe('emotional resonance of memories without feeling words', () => {
  it('scores family, ritual, childhood, love and loss as resonant, and a plain fact as not', () => {
    const resonant = [
      'My grandfather taught me to skip stones here every Sunday.',
      'When I was a kid my brother and I used to race our bikes past the bakery.',
      'I proposed to my wife under the oak tree by the pool.',
      'After my mom passed away I walked down this street every evening to the bookshop.',
      'Our daughter took her first steps on this lawn.',
    ];
    for (const memory of resonant) {
      const { facts } = forge('Sellwood', memory);
      expect(facts.resonance, memory).toBeGreaterThanOrEqual(5);
      expect(facts.sentiment.label, memory).not.toBe('neutral');
    }
    expect(themesOf('My grandfather taught me to skip stones here every Sunday.').map((t) => t.name)).toEqual(['family', 'ritual', 'teaching']);
    expect(forge('Sellwood', 'After my mom passed away I walked down this street every evening.').facts.sentiment.label).not.toBe('positive');
    expect(forge('Pioneer Square', 'The bus stop is on the corner near the fountain.').facts.resonance).toBeLessThan(2);
  });
});

describe('noun phrases for titles and clues', () => {
  it('ends every phrase in a noun: no verbs, adverbs or lone adjectives', () => {
    const phrases = (t: string) => nounPhrases(t).map((p) => p.join(' '));
    expect(phrases('Herons watched from the reeds.')).toEqual(['herons', 'reeds']);
    expect(phrases('My grandfather taught me to skip stones.')).toEqual(['grandfather', 'stones']);
    expect(phrases('He told me about his whole life.')).toEqual(['life']);
    expect(phrases('We raced our bikes past the bakery, eating warm cinnamon rolls.')).toEqual(['bikes', 'bakery', 'warm cinnamon rolls']);
    expect(phrases('The stones were flat and she passed away quietly.')).toEqual(['stones']);
  });

  it('titles and clues name things at the place, grammatically', () => {
    const cases: [string, string][] = [
      ['Laurelhurst Park duck pond', 'My grandfather taught me to skip stones here every Sunday. Herons watched from the reeds while he told me about his whole life.'],
      ['Laurelhurst Park duck pond', 'My grandfather taught me to skip stones here every Sunday…'],
      ['Hawthorne', 'After my mom passed away I walked down Hawthorne every evening to the little bookshop she loved.'],
      ['Mt Tabor', 'We watched the fireworks from the old volcano with Anna and Marco, eating cold pizza on a blanket.'],
      ['Alberta Street', 'When I was a kid my brother and I used to race our bikes past the bakery and buy warm cinnamon rolls.'],
    ];
    for (const [location, memory] of cases) {
      const { texts } = forge(location, memory);
      const all = `${texts.symbol} | ${texts.story_trigger} | ${texts.AR_overlay}`;
      // No verb fragments, no bare abstractions, no "the" before a name, no place as its own clue.
      expect(all, memory).not.toMatch(/taught|watched|passed|eating|whole life|signs of (?:sunday|life|whole)|the (?:Anna|Marco|Hawthorne)|signs of Hawthorne/i);
      expect(texts.story_trigger, memory).toMatch(/look for (?:signs of )?(?:the [a-z]+(?: [a-z]+)*|[A-Z][a-z]+)[ ,]/);
    }
    const grandfather = forge('Laurelhurst Park duck pond', cases[0]![1]).texts;
    expect(grandfather.symbol).toBe('Rune of the Stones');
    expect(grandfather.story_trigger).toContain('signs of the herons');
    expect(grandfather.AR_overlay).toMatch(/glows warmly/);
    expect(grandfather.AR_overlay).not.toMatch(/resonance 0\//);
  });
});
