import { describe, expect, it } from 'vitest';
import { cohensKappa, type Row } from './data.ts';
import { categoryWords, normaliseText, urlHostWords } from './features.ts';
import { adaptPriors } from './classifier.ts';
import { eventScores, lexiconScores, lineupCue } from './lexicon.ts';
import { prepare } from './features.ts';
import { PROJECT_EXAMPLES, PROJECT_SOURCE } from './project-examples.ts';
import {
  BASE,
  abstention,
  abstentionCurve,
  assertNoLeak,
  buildVocabulary,
  fit,
  leaveOneSourceOut,
  losoSide,
  nestedLoso,
  realRows,
  sourceGroups,
  sourceKey,
  sourceWeights,
  trainingSide,
  withoutFeatures,
  type Config,
} from './train.ts';

const row = (id: string, source: string, title: string, label?: Row['label'], description = ''): Row => ({
  id,
  source,
  title,
  description,
  venue: '',
  label,
  basis: label ? 'annotated' : undefined,
});

describe('classifier training helpers', () => {
  it('reduces URLs to the host words that may carry meaning', () => {
    expect(urlHostWords('www.last.fm')).toBe('last');
    expect(urlHostWords('WWW2.machbar-potsdam.de')).toBe('machbar-potsdam');
    expect(urlHostWords('www.bbc.co.uk')).toBe('bbc');
    expect(urlHostWords('example.org:8080')).toBe('example');
    expect(normaliseText('Info: http://www.last.fm/event/123+Band and www.codeweek.eu!')).not.toMatch(/www|fm|eu|event|123/);
    expect(normaliseText('see https://www.codeweek.eu/x')).toContain('codeweek');
  });

  it('folds source aliases', () => {
    expect(sourceKey('socrata_nycparks')).toBe('nycparks_socrata');
    expect(sourceKey('nycparks_socrata')).toBe('nycparks_socrata');
    expect(sourceKey('meetup_boulder_2018')).toBe('meetup_boulder_2018');
  });

  it('leave-one-source-out removes every row of the held-out source and its titles elsewhere', () => {
    const annotated = [row('a1', 'A', 'Jazz night', 'Music'), row('a2', 'A', 'Yoga flow', 'Wellness'), row('b1', 'B', 'Chess club', 'Other')];
    const trainCsv = [row('t1', 'A', 'Blues night', 'Music'), row('t2', 'C', 'Jazz Night (Main Hall)', 'Music'), row('t3', 'C', 'Python meetup', 'Tech'), row('t4', 'socrata_nycparks', 'Swim', 'Sports')];
    const pool = [row('p1', 'A', 'Salsa class'), row('p2', 'B', 'Yoga flow'), row('p3', 'C', 'Pottery')];
    const { test, side } = losoSide('A', annotated, trainCsv, pool, BASE);
    expect(test.map((r) => r.id)).toEqual(['a1', 'a2']);
    const ids = [...side.labelled, ...side.unlabelled].map((r) => r.id).sort();
    // t1 and p1 are source A; t2 shares a held-out title key; p2 shares one too.
    expect(ids).toEqual(['b1', 'p3', 't3', 't4']);
    expect(() => assertNoLeak(test, side, 'A')).not.toThrow();
    // Aliased sources are held out together.
    const socrata = losoSide('nycparks_socrata', [row('s1', 'nycparks_socrata', 'Kids in motion', 'Sports'), ...annotated], trainCsv, pool, BASE);
    expect([...socrata.side.labelled, ...socrata.side.unlabelled].some((r) => r.id === 't4')).toBe(false);
  });

  it('assertNoLeak catches a held-out row or title in training', () => {
    const test = [row('a1', 'A', 'Jazz night', 'Music')];
    expect(() => assertNoLeak(test, { labelled: [row('x', 'A', 'Other title', 'Arts')], unlabelled: [], annotated: [] }, 'A')).toThrow(/own training side/);
    expect(() => assertNoLeak(test, { labelled: [], unlabelled: [row('y', 'B', 'JAZZ NIGHT!')], annotated: [] }, 'A')).toThrow(/held-out title/);
  });

  it('source weights give each source about the same total weight', () => {
    const rows = [...Array.from({ length: 8 }, (_, i) => row(`a${i}`, 'A', `a ${i}`, 'Sports')), row('b', 'B', 'b', 'Arts'), row('c', 'socrata_nycparks', 'c', 'Arts'), row('d', 'nycparks_socrata', 'd', 'Arts')];
    const w = sourceWeights(rows, 1);
    const total = (src: string) => rows.reduce((s, r, i) => s + (sourceKey(r.source) === src ? w[i]! : 0), 0);
    expect(total('A')).toBeCloseTo(total('B'), 9);
    expect(total('nycparks_socrata')).toBeCloseTo(total('B'), 9);
    expect([...sourceWeights(rows, 0)].every((v) => v === 1)).toBe(true);
    // Half-way: sqrt of the ratio.
    expect(sourceWeights(rows, 0.5)[0]).toBeCloseTo(Math.sqrt(11 / 3 / 8), 9);
  });

  it('minSources keeps only features seen in enough distinct sources (lexicon features always)', () => {
    const rows = [row('1', 'A', 'burgerweeshuis concert'), row('2', 'A', 'burgerweeshuis concert'), row('3', 'B', 'park concert'), row('4', 'B', 'park concert')];
    const cfg: Pick<Config, 'features' | 'minDf' | 'minSources'> = { features: BASE.features, minDf: 2, minSources: 2 };
    const vocab = buildVocabulary(rows, cfg);
    expect(vocab).toContain('t:concert');
    expect(vocab).not.toContain('t:burgerweeshuis');
    expect(vocab).toContain('lt:Music');
    expect(buildVocabulary(rows, { ...cfg, minSources: 1 })).toContain('t:burgerweeshuis');
  });

  it('abstention scores the confident predictions and counts the rest as review', () => {
    const preds = [
      { row: row('1', 'A', 'a', 'Music'), category: 'Music' as const, confidence: 0.9 },
      { row: row('2', 'A', 'b', 'Arts'), category: 'Music' as const, confidence: 0.4 },
      { row: row('3', 'A', 'c', 'Arts'), category: 'Arts' as const, confidence: 0.6 },
      { row: row('4', 'A', 'd', 'Other'), category: 'Arts' as const, confidence: 0.59 },
    ];
    const a = abstention(preds, 0.6);
    expect(a.keptCount).toBe(2);
    expect(a.reviewShare).toBeCloseTo(0.5, 9);
    expect(a.kept.accuracy).toBe(1);
    expect(abstention([], 0.6).reviewShare).toBe(0);
  });

  it('leave-one-source-out trains per source and pools the held-out predictions', () => {
    const titles: Array<[string, Row['label']]> = [
      ['Jazz concert', 'Music'],
      ['Yoga class', 'Wellness'],
      ['Python coding workshop', 'Tech'],
      ['Basketball league', 'Sports'],
    ];
    const annotated: Row[] = [];
    for (const src of ['A', 'B', 'C']) titles.forEach(([t, l], i) => annotated.push(row(`${src}${i}`, src, `${t} ${src.toLowerCase()}x`, l, t)));
    const cfg: Config = { ...BASE, selfRounds: 0 };
    const folds: string[] = [];
    const r = leaveOneSourceOut(annotated, [], [], cfg, { temperature: 1, otherThreshold: 0 }, (s) => folds.push(s));
    expect(folds).toEqual(['A', 'B', 'C']);
    expect(r.predictions).toHaveLength(annotated.length);
    expect(r.sources.map((s) => s.n)).toEqual([4, 4, 4]);
    expect(r.pooled.n).toBe(12);
    // The category words are shared across sources, so every held-out source is learnable.
    expect(r.pooled.accuracy).toBe(1);
    for (const p of r.predictions) expect(p.confidence).toBeGreaterThan(0);
  });

  it('class-prior adaptation shifts a one-sided batch and leaves a small one nearly alone', () => {
    const prior = [0.5, 0.5];
    const batch = [...Array.from({ length: 20 }, () => [0.9, 0.1]), [0.45, 0.55]];
    const out = adaptPriors(batch, prior);
    for (const p of out) expect(p[0]! + p[1]!).toBeCloseTo(1, 9);
    // The batch is mostly class 0, so its uncertain event moves to class 0.
    expect(out[20]![0]!).toBeGreaterThan(0.5);
    // Two events against a pseudo-count of 10 barely move.
    const small = adaptPriors([[0.45, 0.55], [0.9, 0.1]], prior);
    expect(small[0]![1]!).toBeGreaterThan(0.5);
    expect(adaptPriors([], prior)).toEqual([]);
    // No strength at all toward the training prior still returns probabilities.
    expect(adaptPriors(batch, prior, 0)[0]!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('recognises a performer listing and nothing that merely repeats a category word', () => {
    expect(lineupCue('Zu + The New Earth Group at Burgerweeshuis', 'Zu, The New Earth Group http://www.last.fm/event/1+Zu')).toBe(true);
    expect(lineupCue('The Opposites', 'The Opposites http://www.last.fm/event/2')).toBe(true);
    expect(lineupCue('Yoga', 'Yoga http://example.org/yoga')).toBe(false);
    expect(lineupCue('Chess Club', 'Chess Club')).toBe(false);
    expect(lineupCue('Spring gala', 'Join us for an evening of fun. Tickets at the door.')).toBe(false);
    expect(lineupCue('Mystery night', 'Someone Else, Another Name')).toBe(false);
    expect(lineupCue('Packers at Bears', '')).toBe(false);
    const raw = { title: 'Isbells at Burgerweeshuis', description: 'Isbells http://www.last.fm/event/3' };
    expect(eventScores(raw, prepare(raw)).title.Music).toBeGreaterThan(0);
  });

  it('the lexicon knows common German, Dutch and French event words', () => {
    const top = (title: string) => {
      const t = lexiconScores(prepare({ title })).title;
      return Object.entries(t).sort((a, b) => b[1] - a[1])[0]?.[0];
    };
    expect(top('Konzert im Park')).toBe('Music');
    expect(top('Reparatur-Treff')).toBe('Tech');
    expect(top('Löten für Anfänger')).toBe('Tech');
    expect(top('Lesung mit Autorin')).toBe('Arts');
    expect(top('Weinprobe')).toBe('Food');
    expect(top('Gründerstammtisch')).toBe('Business');
    expect(top('Tischtennis Turnier')).toBe('Sports');
    expect(top('Entspannung am Abend')).toBe('Wellness');
    expect(top('Feuerwerk am Hafen')).toBe('Other');
  });

  it('the lexicon puts cooking, baking and tasting classes on the Food side and craft classes on the Arts side', () => {
    const top = (title: string, description = '') => {
      const { title: t, body: b } = lexiconScores(prepare({ title, description }));
      const total: Record<string, number> = {};
      for (const [c, v] of [...Object.entries(t), ...Object.entries(b)]) total[c] = (total[c] ?? 0) + v;
      return Object.entries(total).sort((x, y) => y[1] - x[1])[0]?.[0];
    };
    expect(top('Sourdough for beginners')).toBe('Food');
    expect(top('Handmade ravioli night')).toBe('Food');
    expect(top('Knife skills 101')).toBe('Food');
    expect(top('Latte art throwdown')).toBe('Food');
    expect(top('Cookie decorating party')).toBe('Food');
    expect(top('Kochkurs für Anfänger')).toBe('Food');
    expect(top('Taller de repostería')).toBe('Food');
    expect(top('Wheel throwing: mugs')).toBe('Arts');
    expect(top('Stained glass for beginners')).toBe('Arts');
    expect(top('Sip and paint', 'A glass of wine while you paint a sunset.')).toBe('Arts');
    expect(top('Aquarellkurs')).toBe('Arts');
  });

  it('does not read a surname in a venue as food', () => {
    const { body } = lexiconScores(prepare({ title: 'Open gym', venue: 'Gymnasium (in Constance Baker Motley Recreation Center)' }));
    expect(body.Food ?? 0).toBe(0);
  });

  it("splits a source's camel-case category into words", () => {
    expect(categoryWords('FoodEvent')).toBe('Food Event');
    expect(categoryWords('VisualArtsEvent')).toBe('Visual Arts Event');
    expect(categoryWords('Food & Drink')).toBe('Food & Drink');
    const p = prepare({ title: 'Saturday session', categories: ['FoodEvent'] });
    expect(lexiconScores(p).title.Food).toBeGreaterThan(0);
  });

  it('project-written examples join a training side only when configured, never with a held-out title', () => {
    expect(PROJECT_EXAMPLES.length).toBeGreaterThan(50);
    expect(PROJECT_EXAMPLES.every((r) => r.basis === 'project' && r.source === PROJECT_SOURCE && r.label)).toBe(true);
    const annotated = [row('a1', 'A', 'Jazz night', 'Music')];
    const off = trainingSide(annotated, [], [], [], { ...BASE, projectExamples: false });
    expect(off.labelled.some((r) => r.basis === 'project')).toBe(false);
    const held = [row('h1', 'B', PROJECT_EXAMPLES[0]!.title, 'Food')];
    const on = trainingSide(annotated, held, [], [], { ...BASE, projectExamples: true });
    expect(on.labelled.filter((r) => r.basis === 'project')).toHaveLength(PROJECT_EXAMPLES.length - 1);
    expect(on.labelled.some((r) => r.title === PROJECT_EXAMPLES[0]!.title)).toBe(false);
    // They are not real events: the prior a feed is adapted from leaves them out.
    expect(realRows(on.labelled)).toEqual(annotated);
  });

  it('project-written rows leave the weights of a feature only they carry alone, and their lexicon features untrained', () => {
    const real = [row('a', 'A', 'Jazz concert', 'Music'), row('b', 'B', 'Yoga class', 'Wellness'), row('c', 'C', 'Jazz trio', 'Music'), row('d', 'D', 'Yoga flow', 'Wellness')];
    const project = [{ ...row('p', PROJECT_SOURCE, 'Sourdough cooking class', 'Food'), basis: 'project' as const }, { ...row('q', PROJECT_SOURCE, 'Sourdough baking class', 'Food'), basis: 'project' as const }];
    const cfg: Config = { ...BASE, selfRounds: 0, minDf: 1 };
    const fitted = fit([...real, ...project], [], cfg, undefined);
    const K = fitted.linear.b.length;
    const weights = (name: string) => {
      const i = fitted.vocab.indexOf(name);
      expect(i).toBeGreaterThanOrEqual(0);
      return [...fitted.linear.W.subarray(i * K, i * K + K)];
    };
    // The word only the project rows carry is learned from them ...
    expect(Math.max(...weights('t:sourdough').map(Math.abs))).toBeGreaterThan(0);
    // ... but the Food lexicon feature, which only they would fire, gets no weight from them.
    expect(weights('lt:Food').every((w) => Math.abs(w) < 1e-9)).toBe(true);
  });

  it('drops the given features from a document', () => {
    const d = { idx: Int32Array.from([1, 4, 7]), val: Float64Array.from([0.5, 2, 3]) };
    const out = withoutFeatures(d, new Set([4]));
    expect([...out.idx]).toEqual([1, 7]);
    expect([...out.val]).toEqual([0.5, 3]);
  });

  it('deals sources into groups of about equal size', () => {
    const rows = [...Array.from({ length: 6 }, (_, i) => row(`a${i}`, 'A', `a${i}`, 'Arts')), ...Array.from({ length: 3 }, (_, i) => row(`b${i}`, 'B', `b${i}`, 'Arts')), ...Array.from({ length: 3 }, (_, i) => row(`c${i}`, 'C', `c${i}`, 'Arts')), row('d', 'D', 'd', 'Arts')];
    // A 6 | B 3 + C 3 = 6 | D ties and goes to the first group.
    expect(sourceGroups(rows, 2)).toEqual([
      ['A', 'D'],
      ['B', 'C'],
    ]);
    expect(sourceGroups(rows, 10)).toHaveLength(4);
  });

  it('abstention curve reports every threshold', () => {
    const preds = [
      { row: row('1', 'A', 'a', 'Music'), category: 'Music' as const, confidence: 0.95 },
      { row: row('2', 'A', 'b', 'Arts'), category: 'Music' as const, confidence: 0.55 },
    ];
    const curve = abstentionCurve(preds, [0.5, 0.9]);
    expect(curve.map((c) => c.keptCount)).toEqual([2, 1]);
    expect(curve[1]!.kept.accuracy).toBe(1);
    expect(curve[1]!.reviewShare).toBeCloseTo(0.5, 9);
  });

  it('nested leave-one-source-out chooses a candidate per source without that source', () => {
    const titles: Array<[string, Row['label']]> = [
      ['Jazz concert', 'Music'],
      ['Yoga class', 'Wellness'],
      ['Python coding workshop', 'Tech'],
      ['Basketball league', 'Sports'],
    ];
    const annotated: Row[] = [];
    for (const src of ['A', 'B', 'C']) titles.forEach(([t, l], i) => annotated.push(row(`${src}${i}`, src, `${t} ${src.toLowerCase()}x`, l, t)));
    const cfg: Config = { ...BASE, selfRounds: 0 };
    const chosen: string[] = [];
    const r = nestedLoso(
      annotated,
      [],
      [],
      [
        { name: 'plain', cfg, adapt: false },
        { name: 'adapted', cfg, adapt: true },
      ],
      { temperature: 1, otherThreshold: 0 },
      2,
      (s, c) => chosen.push(`${s}:${c}`),
    );
    expect(chosen).toHaveLength(3);
    expect(Object.keys(r.chosen!)).toEqual(['A', 'B', 'C']);
    expect(r.predictions).toHaveLength(12);
    expect(r.pooled.accuracy).toBe(1);
  });
});

describe('cohensKappa (agreement of two labellings, the classifier bench\'s second annotation)', () => {
  it('is 1 for identical labellings and 0 when agreement is what the label frequencies give by chance', () => {
    expect(cohensKappa(['Music', 'Arts', 'Sports'], ['Music', 'Arts', 'Sports'])).toBe(1);
    // Each side half Music, half Arts, agreeing on half the events: exactly chance.
    expect(cohensKappa(['Music', 'Music', 'Arts', 'Arts'], ['Music', 'Arts', 'Music', 'Arts'])).toBeCloseTo(0, 10);
  });

  it('discounts agreement on a dominant label', () => {
    // 9 of 10 agree, but mostly on Sports: po 0.9, pe 0.9 * 0.8 + 0.1 * 0.2 = 0.74.
    const a = [...new Array<'Sports'>(9).fill('Sports'), 'Arts'] as const;
    const b = [...new Array<'Sports'>(8).fill('Sports'), 'Arts', 'Arts'] as const;
    expect(cohensKappa(a, b)).toBeCloseTo((0.9 - 0.74) / 0.26, 10);
    expect(() => cohensKappa(['Music'], [])).toThrow(/length/);
  });
});
