// Text normalisation and feature extraction for the event category classifier. Shared by the
// training script (scripts/train-classifier.ts) and the runtime (classifier.ts) so the two
// cannot drift: a change here needs a retrain (the model records FEATURE_VERSION).

import { eventScores } from './lexicon.ts';

export const CATEGORIES = ['Music', 'Food', 'Business', 'Sports', 'Arts', 'Tech', 'Wellness', 'Other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Bump when tokenisation or feature names change; the model stores it and refuses a mismatch. */
export const FEATURE_VERSION = 8;

export interface EventText {
  title: string;
  description?: string;
  venue?: string;
  categories?: string[];
}

/** Words kept from a description: enough for the topic, bounded for speed. */
const MAX_DESCRIPTION_WORDS = 60;
const MAX_TITLE_CHARS = 300;
const MAX_DESCRIPTION_CHARS = 700;

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by for from has have in into is it its of on or our the their this that to was were will with you your we us ' +
    'all any can do each more not no so than then there these they too very what when where which who why how also just about after ' +
    'before during over under up out off only own same some such both here if but join come get one two new every each week weekly ' +
    'de der die das und den dem des ein eine einer zu mit im am auf fur von sich ist wir ihr sie es het een en van op le la les et du'
  ).split(' '),
);

/**
 * The words of a URL's host that can say something about an event: "www." and the top-level
 * domain are dropped (they mark a feed's boilerplate, not a topic), "www.last.fm" -> "last",
 * "machbar-potsdam.de" -> "machbar-potsdam".
 */
export function urlHostWords(host: string): string {
  return host
    .toLowerCase()
    .replace(/^www\d*\./, '')
    .replace(/:\d+$/, '')
    .replace(/\.[a-z]{2,6}\.?$/, '')
    .replace(/\.(?:co|com|org|net|ac|gov)$/, '');
}

/** Lower case, accents folded, URLs reduced to their host words, HTML entities and tags dropped. */
export function normaliseText(input: string): string {
  return input
    .replace(/<[^>]{0,200}>/g, ' ')
    .replace(/&(?:amp|#38);/gi, '&')
    .replace(/&[#a-z0-9]{1,8};/gi, ' ')
    .replace(/(?:https?:\/\/|\bwww\d*\.)([\p{L}\p{N}.-]+)\S*/giu, (_, host: string) => ` ${urlHostWords(host)} `)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/&/g, ' and ')
    .replace(/[’`´]/g, "'");
}

const stemMemo = new Map<string, string>();

/** Light English suffix stripping: plurals, -ing, -ed. Deterministic, good enough for a linear model. */
export function stem(word: string): string {
  let s = stemMemo.get(word);
  if (s === undefined) {
    s = stemUncached(word);
    if (stemMemo.size >= 100_000) stemMemo.clear();
    stemMemo.set(word, s);
  }
  return s;
}

function stemUncached(word: string): string {
  let w = word;
  if (w.length > 3 && w.endsWith("'s")) w = w.slice(0, -2);
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) {
    w = w.slice(0, -3);
    if (/([bdgmnprt])\1$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('ed') && w.length > 4 && !w.endsWith('eed')) {
    w = w.slice(0, -2);
    if (/([bdgmnprt])\1$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('s') && !/(ss|us|is|ys)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Word tokens of normalised text (letters and digits of any script). */
export function tokens(normalised: string): string[] {
  return normalised.match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface PreparedText {
  title: string;
  description: string;
  venue: string;
}

/**
 * A source category's words: schema.org types and similar identifiers are written in camel case
 * ("FoodEvent", "VisualArtsEvent"), whose words would otherwise be one token.
 */
export function categoryWords(category: string): string {
  return category.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
}

/** Normalised, length-bounded title, description and venue. Categories from the source join the title. */
export function prepare(input: EventText): PreparedText {
  const cats = (input.categories ?? [])
    .filter((c) => typeof c === 'string')
    .map(categoryWords)
    .join(' ; ');
  const title = normaliseText(((input.title ?? '') + (cats ? ' ; ' + cats : '')).slice(0, MAX_TITLE_CHARS));
  let description = normaliseText((input.description ?? '').slice(0, MAX_DESCRIPTION_CHARS));
  // Descriptions that merely repeat the title add nothing.
  if (description.trim() === title.trim()) description = '';
  const venue = normaliseText((input.venue ?? '').slice(0, 200));
  return { title, description, venue };
}

export interface FeatureOptions {
  /** Character n-grams of title words (robust to compounds, other languages, typos). */
  charNgrams: boolean;
  /** Bigrams over title and description words. */
  bigrams: boolean;
  /** Scale of the lexicon-rule features. */
  lexiconScale: number;
  /** Text-shape flags (no description, very short title). */
  shape: boolean;
}

export const DEFAULT_FEATURE_OPTIONS: FeatureOptions = { charNgrams: true, bigrams: true, lexiconScale: 1, shape: false };

export interface Extracted {
  /** Sparse features by name with their values. */
  sparse: Map<string, number>;
  /**
   * Word weights for the averaged word-vector feature (words the model has vectors for; title
   * words count double; weights sum to 1). Empty unless `known` was given.
   */
  bag: Map<string, number>;
}

/**
 * Features of one event, before the vocabulary lookup. Each group is scaled on its own so a
 * long description cannot drown the title.
 */
export function extract(input: EventText, options: FeatureOptions = DEFAULT_FEATURE_OPTIONS, known?: (word: string) => boolean): Extracted {
  const p = prepare(input);
  const out = new Map<string, number>();
  const add = (name: string, value: number) => out.set(name, (out.get(name) ?? 0) + value);

  const titleWords = tokens(p.title).filter((w) => !STOPWORDS.has(w));
  const titleStems = titleWords.map(stem);
  const descWords = tokens(p.description)
    .filter((w) => !STOPWORDS.has(w))
    .slice(0, MAX_DESCRIPTION_WORDS);
  const descStems = descWords.map(stem);
  const venueStems = tokens(p.venue)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);

  // Title words: the strongest evidence.
  const tSet = new Set(titleStems);
  const tScale = 1 / Math.sqrt(Math.max(1, tSet.size));
  for (const w of tSet) add('t:' + w, 1.4 * tScale);

  // All words (title and description) as one bag.
  const allSet = new Set([...titleStems, ...descStems]);
  const aScale = 1 / Math.sqrt(Math.max(1, allSet.size));
  for (const w of allSet) add('w:' + w, aScale);

  if (options.bigrams) {
    const bSet = new Set<string>();
    for (const seq of [titleStems, descStems]) for (let i = 0; i + 1 < seq.length; i++) bSet.add(seq[i] + '_' + seq[i + 1]);
    const bScale = 0.8 / Math.sqrt(Math.max(1, bSet.size));
    for (const b of bSet) add('b:' + b, bScale);
  }

  const vSet = new Set(venueStems);
  const vScale = 0.6 / Math.sqrt(Math.max(1, vSet.size));
  for (const w of vSet) add('v:' + w, vScale);

  if (options.charNgrams) {
    const cSet = new Set<string>();
    for (const w of titleWords) {
      if (w.length < 4 || /^\d+$/.test(w)) continue;
      const s = '<' + w + '>';
      for (let i = 0; i + 4 <= s.length; i++) cSet.add(s.slice(i, i + 4));
    }
    const cScale = 0.7 / Math.sqrt(Math.max(1, cSet.size));
    for (const c of cSet) add('c:' + c, cScale);
  }

  if (options.shape) {
    if (titleStems.length === 0) add('shape:no_title_words', 1);
    if (descStems.length === 0) add('shape:no_description', 0.5);
    if (titleStems.length <= 2) add('shape:short_title', 0.5);
  }

  if (options.lexiconScale > 0) {
    const scores = eventScores(input, p);
    // Capped at 2: a decisive phrase on top of a clear word (score 5.5) counts for more than the word alone.
    for (const [cat, s] of Object.entries(scores.title)) if (s > 0) add('lt:' + cat, options.lexiconScale * Math.min(2, s / 3));
    for (const [cat, s] of Object.entries(scores.body)) if (s > 0) add('lb:' + cat, options.lexiconScale * Math.min(2, s / 3));
  }

  const bag = new Map<string, number>();
  if (known) {
    let total = 0;
    const put = (w: string, v: number) => {
      if (!known(w)) return;
      bag.set(w, (bag.get(w) ?? 0) + v);
      total += v;
    };
    for (const w of new Set(titleWords)) put(w, 2);
    for (const w of new Set(descWords)) put(w, 1);
    if (total > 0) for (const [w, v] of bag) bag.set(w, v / total);
  }
  return { sparse: out, bag };
}

/** The sparse features only (see extract). */
export function extractFeatures(input: EventText, options: FeatureOptions = DEFAULT_FEATURE_OPTIONS): Map<string, number> {
  return extract(input, options).sparse;
}
