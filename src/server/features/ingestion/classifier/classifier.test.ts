import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from './features.ts';
import { classify, classifyFeed, classifyMany, getClassifier, type ModelFile, MODEL_URL } from './classifier.ts';
import { ANNOTATED_CSV, heldOutSplit, loadAnnotated, metrics } from './data.ts';
import { CLASS_WORKSHOP_CASES, classCaseMetrics, type ClassCase } from './class-workshop-cases.ts';
import { APPROVE_CONFIDENCE } from './llm-classify.ts';

describe('event category classifier', () => {
  const clear: Array<[string, (typeof CATEGORIES)[number]]> = [
    ['Jazz night at the Blue Note', 'Music'],
    ['Vinyasa yoga in the park', 'Wellness'],
    ['Zumba class', 'Sports'],
    ['Intro to Python workshop', 'Tech'],
    ['Farmers market', 'Food'],
    ['Startup networking mixer', 'Business'],
    ['Watercolor painting class', 'Arts'],
    ['Toddler storytime', 'Other'],
    ['Karaoke night', 'Music'],
    ['Youth basketball league', 'Sports'],
    ['Book club: this month we discuss a novel', 'Arts'],
    ['Hackathon for civic tech', 'Tech'],
    ['Guided meditation and breathwork', 'Wellness'],
    ['Birding walk with the Urban Park Rangers', 'Other'],
    ['Job fair for veterans', 'Business'],
    ['Wine tasting evening', 'Food'],
  ];

  it.each(clear)('%s -> %s', (title, expected) => {
    expect(classify({ title }).category).toBe(expected);
  });

  it('uses the description and the venue, not only the title', () => {
    expect(classify({ title: 'Tuesday session', description: 'Bring your mat for a gentle hatha yoga and pilates flow.' }).category).toBe('Wellness');
    expect(classify({ title: 'Open night', description: 'Live bands and a DJ until late.', venue: 'The Music Hall' }).category).toBe('Music');
  });

  it('gives a confidence in [0, 1] for every input, odd ones included', () => {
    const inputs = [
      { title: '' },
      { title: '   ' },
      { title: '🎉🎉🎉' },
      { title: 'x'.repeat(10_000), description: 'y '.repeat(20_000) },
      { title: 'Öffentliches Treffen des Freifunk-Vereins', description: 'Wir basteln an Routern.' },
      { title: 'Concert', categories: ['Music', 'Nightlife'] },
      { title: 'A', description: undefined, venue: undefined, categories: [] },
    ];
    for (const input of inputs) {
      const c = classify(input);
      expect(CATEGORIES).toContain(c.category);
      expect(c.confidence).toBeGreaterThanOrEqual(0);
      expect(c.confidence).toBeLessThanOrEqual(1);
      expect(Number.isFinite(c.confidence)).toBe(true);
    }
  });

  it('is confident on clear cases and less so on vague ones', () => {
    expect(classify({ title: 'Pickleball open play', description: 'Open play pickleball in the gymnasium.' }).confidence).toBeGreaterThan(0.6);
    expect(classify({ title: 'Session 2' }).confidence).toBeLessThan(classify({ title: 'Zumba class' }).confidence);
  });

  it('is deterministic and classifyMany matches classify', () => {
    const list = clear.map(([title]) => ({ title, description: `${title}: everyone welcome`, venue: 'Community Center' }));
    const a = classifyMany(list);
    const b = list.map((e) => classify(e));
    expect(a).toEqual(b);
    expect(classifyMany(list)).toEqual(a);
    const probs = getClassifier().probabilities(list[0]!);
    expect(probs).toHaveLength(CATEGORIES.length);
    expect(probs.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 6);
  });

  it("classifies a feed's new events together, leaning unsure ones towards what the feed mostly lists", () => {
    const model = JSON.parse(readFileSync(MODEL_URL, 'utf8')) as ModelFile;
    expect(model.trainPriors).toHaveLength(CATEGORIES.length);
    const gigs = ['Live band: The Decemberists', 'Jazz trio night', 'Indie rock concert', 'DJ set and dancing', 'Folk songwriters showcase', 'Punk show with three bands', 'Choir concert', 'Blues jam'];
    // A bare performer name says nothing alone; in a gig calendar it is most likely a gig.
    const unsure = { title: 'Tove Styrke' };
    const alone = classify(unsure);
    expect(alone.category).not.toBe('Music');
    const inFeed = classifyFeed([...gigs.map((title) => ({ title })), unsure]);
    expect(inFeed.at(-1)!.category).toBe('Music');
    expect(inFeed.slice(0, -1).every((c) => c.category === 'Music')).toBe(true);
    // One event is classified alone.
    expect(classifyFeed([unsure])).toEqual([alone]);
  });

  it('source categories act as hints', () => {
    expect(classify({ title: 'Saturday night', categories: ['Concerts', 'Live music'] }).category).toBe('Music');
  });

  it('is fast enough for the ingestion pipeline (loose bound)', () => {
    classify({ title: 'warm-up' });
    const events = Array.from({ length: 10_000 }, (_, i) => ({
      title: `Event ${i}: ${clear[i % clear.length]![0]}`,
      description: 'Join us for an evening with friends, neighbours and a few surprises. Free entry, all ages welcome.',
      venue: 'Main Street Community Hall',
    }));
    // CPU time, not wall time: on a shared, busy machine the wall clock mostly measures waiting.
    // Typically about 0.5 s of CPU; the bound only catches an accidental slow path.
    const cpu0 = process.cpuUsage();
    classifyMany(events);
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(2000);
  });

  it('ships a small model artefact', () => {
    const bytes = readFileSync(MODEL_URL).length;
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });

  // The evaluation needs the labelled fixtures in ../shared (beside the repository), which are not
  // part of the repository: without them this test is skipped, the rest still run.
  it.skipIf(!existsSync(ANNOTATED_CSV))('reproduces the held-out macro-F1 reported in EVALUATION.md', () => {
    const model = JSON.parse(readFileSync(MODEL_URL, 'utf8')) as ModelFile;
    const annotated = loadAnnotated();
    const { test } = heldOutSplit(annotated);
    // The split the code computes is the one the model was trained without.
    expect(test.map((r) => r.id).sort()).toEqual([...model.training.heldOutIds].sort());
    const m = metrics(
      test.map((r) => r.label!),
      test.map((r) => classify(r).category),
    );
    const report = readFileSync(new URL('./EVALUATION.md', import.meta.url), 'utf8');
    const reported = Number(/Held-out macro-F1: \*\*([0-9.]+)\*\*/.exec(report)?.[1]);
    const reportedAccuracy = Number(/Held-out accuracy: \*\*([0-9.]+)%\*\*/.exec(report)?.[1]);
    expect(reported).toBeGreaterThan(0);
    expect(Math.abs(m.macroF1 - reported)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(100 * m.accuracy - reportedAccuracy)).toBeLessThanOrEqual(0.1);
  });
});

// Issue 12: cooking, baking and tasting classes are Food, painting, pottery, drawing and craft
// classes are Arts. The cases are the evaluation set of class-workshop-cases.ts (never trained on);
// EVALUATION.md reports the same figures, regenerated by scripts/train-classifier.ts.
describe('classes and workshops: Food or Arts', () => {
  /** The committed model's misses, listed in EVALUATION.md; the set-level test bounds them. */
  const KNOWN_MISSES = new Set([
    'Gluten-Free Baking Workshop',
    'Macaron Masterclass',
    'Taller de cocina mexicana',
    'Dim Sum Workshop',
    'Spice Blending Workshop',
    'Screen Printing Workshop: Print Your Own Tote',
    'Stained Glass Suncatchers Workshop',
  ]);
  const asCase = (c: ClassCase) => [c.title, c.label, c] as const;

  it.each(CLASS_WORKSHOP_CASES.filter((c) => !KNOWN_MISSES.has(c.title)).map(asCase))('%s -> %s', (_title, label, c) => {
    expect(classify(c).category).toBe(label);
  });

  it.each(CLASS_WORKSHOP_CASES.filter((c) => c.demo).map(asCase))('the demo feed class "%s" is %s on its own', (_title, label, c) => {
    expect(classify(c).category).toBe(label);
  });

  it('keeps the food classes of a food feed together as Food when the feed is classified as one batch', () => {
    const feed = CLASS_WORKSHOP_CASES.filter((c) => c.label === 'Food');
    const out = classifyFeed(feed);
    expect(out.filter((c) => c.category === 'Food').length).toBeGreaterThanOrEqual(feed.filter((c) => classify(c).category === 'Food').length);
    expect(out.some((c) => c.category === 'Arts')).toBe(false);
  });

  it('title-only phrasings land on the right side too', () => {
    const food = ['Learn to bake croissants', 'Sushi rolling for two', 'Beginner cheese tasting', 'Hands-on dumpling class', 'Bread baking basics', 'Chocolate tasting evening', 'Wine tasting for beginners', 'Cake decorating workshop'];
    const arts = ['Pottery wheel class', 'Watercolor painting class', 'Figure drawing drop-in', 'Beginner knitting class', 'Ceramics for beginners', 'Oil painting workshop'];
    for (const title of food) expect(classify({ title }).category, title).toBe('Food');
    for (const title of arts) expect(classify({ title }).category, title).toBe('Arts');
  });

  it('a schema.org FoodEvent type counts as a food word', () => {
    const plain = getClassifier().probabilities({ title: 'Saturday morning session' });
    const typed = getClassifier().probabilities({ title: 'Saturday morning session', categories: ['FoodEvent'] });
    const food = CATEGORIES.indexOf('Food');
    expect(typed[food]!).toBeGreaterThan(plain[food]!);
  });

  it('gets most of the set right, almost never swaps Food and Arts, and matches EVALUATION.md', () => {
    const m = classCaseMetrics(classify, APPROVE_CONFIDENCE);
    expect(m.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(m.crossed).toBeLessThanOrEqual(1);
    for (const r of m.results) if (r.category !== r.case.label) expect(KNOWN_MISSES, r.case.title).toContain(r.case.title);
    const report = readFileSync(new URL('./EVALUATION.md', import.meta.url), 'utf8');
    const reported = Number(/\| Committed model \| ([0-9.]+)% \((\d+)\/(\d+)\)/.exec(report)?.[1]);
    expect(Math.abs(100 * m.accuracy - reported)).toBeLessThanOrEqual(0.1);
  });
});
