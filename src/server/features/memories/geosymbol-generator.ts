// The built-in memory forge engine (decisions: AI features work offline): key phrases are noun
// phrases (a light part-of-speech pass: verbs, adverbs and trailing adjectives end a phrase)
// ranked RAKE-style; emotional resonance comes from a small valence lexicon with negation and
// from the themes that make a memory matter without feeling words (family, ritual, childhood,
// love, loss, being taught); difficulty from length and specificity; and a symbol, story trigger
// and AR overlay composed from them.
// A language model, when configured, only rewrites the three texts from the same facts.
import type { CodexEntry, OutputType } from '../../../contract/memories.ts';
import { GEOSYMBOL_DIFFICULTIES } from '../../../contract/memories.ts';

export type Difficulty = (typeof GEOSYMBOL_DIFFICULTIES)[number];

const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each ' +
    'even ever every few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just last like me more most my myself ' +
    'no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they ' +
    'this those through to too under until up us very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'remember remembered time times one still really always never get got go went going back day things thing lot much many way made make us felt feel feeling think thought ' +
    'around first used used yet something someone everyone there\'s it\'s i\'m we\'re didn\'t don\'t wasn\'t couldn\'t can\'t won\'t'
  ).split(/\s+/),
);

/** Valence of ~150 common feeling words, -5 (worst) .. +5 (best), in the manner of AFINN. */
export const LEXICON: Readonly<Record<string, number>> = {
  love: 3, loved: 3, loving: 3, lovely: 3, adore: 3, adored: 3, joy: 3, joyful: 3, happy: 3, happiest: 4, happiness: 3, glad: 2, delight: 3, delighted: 3,
  laugh: 2, laughed: 2, laughing: 2, laughter: 3, smile: 2, smiled: 2, smiling: 2, fun: 2, wonderful: 4, amazing: 4, awesome: 4, beautiful: 3, gorgeous: 3,
  perfect: 3, magic: 3, magical: 3, warm: 2, warmth: 2, cozy: 2, peaceful: 2, peace: 2, calm: 2, safe: 1, free: 1, freedom: 2, proud: 2, pride: 2, grateful: 3,
  thankful: 2, hope: 2, hopeful: 2, excited: 3, exciting: 3, thrilled: 4, celebrate: 3, celebrated: 3, celebration: 3, friend: 1, friends: 1, friendship: 2,
  kind: 2, kindness: 2, sweet: 2, bright: 1, sunny: 1, golden: 2, cherish: 3, cherished: 3, treasure: 2, favorite: 2, favourite: 2, best: 3, good: 2, great: 3,
  nice: 2, comfort: 2, comforting: 2, together: 1, first: 0, alive: 2, inspired: 2, inspiring: 2, wonder: 2, awe: 3, brave: 2, courage: 2, triumph: 3, won: 2,
  win: 2, success: 2, hug: 2, hugged: 2, kiss: 2, kissed: 2, dance: 1, danced: 1, dancing: 1, music: 1, sing: 1, sang: 1, home: 1, belong: 2, belonging: 2,
  sad: -2, sadness: -2, cry: -2, cried: -2, crying: -2, tears: -2, tear: -1, lonely: -2, alone: -1, lost: -2, loss: -3, grief: -3, grieve: -3, grieving: -3,
  mourn: -3, mourning: -3, died: -3, death: -3, dead: -3, funeral: -3, miss: -2, missed: -2, missing: -2, hurt: -2, hurts: -2, pain: -2, painful: -2, broken: -2,
  heartbroken: -3, afraid: -2, fear: -2, scared: -2, terrified: -3, anxious: -2, worried: -2, worry: -2, nervous: -1, angry: -3, anger: -3, mad: -2, hate: -3,
  hated: -3, awful: -3, terrible: -3, horrible: -3, bad: -2, worst: -3, regret: -2, sorry: -1, ashamed: -2, shame: -2, guilty: -2, cold: -1, dark: -1, rain: 0,
  storm: -1, sick: -2, ill: -2, hospital: -1, goodbye: -1, leave: -1, left: 0, gone: -1, fight: -2, fought: -2, argue: -2, argued: -2, tired: -1,
  bittersweet: 1, nostalgia: 1, nostalgic: 1, remember: 0, surprise: 1, surprised: 1, strange: -1, weird: -1, quiet: 1, wild: 1, epic: 3, unforgettable: 3,
};

const NEGATIONS = new Set(['not', 'no', 'never', "didn't", "don't", "wasn't", "weren't", "couldn't", "can't", "won't", 'without', 'hardly', 'nobody', 'nothing']);
const INTENSIFIERS: Readonly<Record<string, number>> = { very: 1.5, so: 1.4, really: 1.4, extremely: 1.8, incredibly: 1.8, truly: 1.3, deeply: 1.6, totally: 1.4, most: 1.3 };
const MONTHS = /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring|autumn|fall|christmas|new year'?s?|halloween|thanksgiving)\b/gi;

/** Lower-case word tokens (apostrophes kept inside words). */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []).filter(Boolean);
}

// --- Noun phrases ----------------------------------------------------------------------------

/** Verbs that are never nouns, in any form a memory uses (irregular pasts above all). */
const VERBS = new Set(
  (
    'taught teach teaches teaching said say says told tell tells took take takes gave give gives saw see sees seen came come comes went go goes gone ran ' +
    'sat sit sits stood stand stands held hold holds kept keep keeps left found find finds brought bring brings bought buy buys caught thought fought ' +
    'met meet meets built sent spent grew grow grows knew know knows threw throw throws drew wrote write writes rode spoke woke chose drove ate eat eats fell ' +
    'hid swam sang began begin drank won dug hung stuck struck swung led fed heard hear hears paid laid sold slept swept wept meant lent forgot forget got ' +
    'let put cut hit quit shut became become becomes lay lie lies seemed seem seems tried try tries asked ask asks wanted want wants needed need ' +
    'liked loved lived live lives believed happened happen happens moved showed shown learned learnt learn learns watched smiled laughed cried looked ' +
    'would could should might must shall will can may did does done doing do had has have having was were is are am be been being'
  ).split(' '),
);
/** Words that are verbs after "to", a subject pronoun or a modal, and nouns after "the" ("to skip stones" / "a skip"). */
const VERB_OR_NOUN = new Set(
  (
    'skip walk watch play run swim fish feed dance kiss hug ride climb jump talk visit look help start turn wait share cook bake sing drink call ' +
    'picnic skate sled race sail row paddle fly hike stroll wander read listen hide throw catch toss kick draw paint plant pick chase'
  ).split(' '),
);
/** Prepositions, particles and adverbs the stop words lack: each ends a phrase ("bikes past", "passed away"). */
const PARTICLES = new Set(
  (
    'past near across along behind beside beyond toward towards onto upon inside outside within among next away ago again together soon often later ' +
    'maybe almost alone instead anyway afterwards upstairs downstairs till whenever wherever though although unless since'
  ).split(' '),
);
/** People: a clue or a symbol is better a thing one could see at the place. */
const PEOPLE = new RegExp(
  '^(?:grand\\w+|granny|nana|nan|gran|moms?|mums?|mothers?|dads?|fathers?|papa|mama|parents?|sisters?|brothers?|sons?|daughters?|aunts?|auntie|uncles?|cousins?|wife|husband|kids?|children|child|bab(?:y|ies)|famil(?:y|ies)|nieces?|nephews?|siblings?|friends?|people|man|men|woman|women|girls?|boys?|neighbou?rs?|partner|girlfriend|boyfriend|sweetheart)$',
);
const SUBJECTS = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'to', 'would', 'could', 'should', 'will', 'can', 'did', "didn't", "would've", 'used', 'let', "let's", 'and']);
/** Adjectives that cannot end a noun phrase ("whole life" is not a place clue; "the stones were flat"). */
const ADJECTIVES = new Set(
  (
    'whole entire same other own old new big small little long short tall high low young tiny huge large great good bad best worst red blue green ' +
    'yellow white black grey gray brown pink purple orange golden silver flat round warm cold hot cool wet dry dark bright quiet loud soft hard ' +
    'happy sad early late favourite favorite beautiful lovely perfect wonderful special last next only real true dear sweet kind gentle proud ' +
    'patient wild calm still empty full open'
  ).split(' '),
);
/** Determiner-like words dropped from the front of a phrase. */
const LEADING_DROP = new Set(['whole', 'entire', 'same', 'other', 'own', 'last', 'next', 'only', 'real', 'true']);
/** -ing and -ly words that are nouns. */
const NOUN_ING = new Set('morning evening wedding building ceiling painting spring string swing wing ring king pudding clothing meeting gathering opening ending beginning sibling darling duckling sapling offering landing railing setting crossing clearing stuffing icing lightning'.split(' '));
const NOUN_LY = new Set('family belly lily jelly holly rally ally bully july italy sally fly butterfly dragonfly firefly assembly anomaly'.split(' '));
const NOUN_ED = new Set('bed shed sled red hundred sacred kindred naked wicked beloved rugged ragged jagged crooked'.split(' '));
/** Heads that make a poor symbol or clue: time and abstractions. */
const ABSTRACT = new Set(
  (
    'life lives time times year years day days week weeks weekend weekends month months moment moments minute minutes hour hours morning mornings ' +
    'afternoon afternoons evening evenings night nights rest kind part lot bit way memory memories story stories sunday sundays monday mondays ' +
    'tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays summer summers winter winters spring autumn fall ' +
    'childhood age idea reason sense feeling feelings heart world'
  ).split(' '),
);

type Tag = 'break' | 'noun' | 'adj' | 'participle';

function tagOf(tok: string, prev: string | undefined): Tag {
  if ((STOP_WORDS.has(tok) && !NOUN_ING.has(tok)) || PARTICLES.has(tok) || /^\d/.test(tok) || tok.length < 3) return 'break';
  if (VERBS.has(tok) || (VERB_OR_NOUN.has(tok) && prev !== undefined && SUBJECTS.has(prev))) return 'break';
  if (tok.endsWith('ly') && !NOUN_LY.has(tok)) return 'break';
  if (ADJECTIVES.has(tok) || /(ous|less|ful)$/.test(tok)) return 'adj';
  if ((tok.length >= 5 && tok.endsWith('ed') && !tok.endsWith('eed') && !NOUN_ED.has(tok)) || (tok.length >= 5 && tok.endsWith('ing') && !NOUN_ING.has(tok))) return 'participle';
  if (tok.includes("'") && !tok.endsWith("'s")) return 'break';
  return 'noun';
}

/** The noun phrases of a text, each as its words: modifiers then at least one noun, at most three words. */
export function nounPhrases(text: string): string[][] {
  const out: string[][] = [];
  for (const chunk of text.split(/[.,;:!?()"\u2014\u2013\u2026\n]+|\s-\s/)) {
    const toks = tokenize(chunk);
    let run: { tok: string; tag: Tag }[] = [];
    const flush = () => {
      // A phrase ends in a noun: trailing verbs-in-disguise ("herons watched") and adjectives go.
      while (run.length && run[run.length - 1]!.tag !== 'noun') run.pop();
      // In front, determiner-like words go, and a participle not right before a noun is a verb ("eating cold pizza").
      while (run.length && (LEADING_DROP.has(run[0]!.tok) || (run[0]!.tag === 'participle' && run[1]?.tag !== 'noun'))) run.shift();
      if (run.length) out.push(run.slice(-3).map((r) => r.tok));
      run = [];
    };
    toks.forEach((tok, i) => {
      const tag = tagOf(tok, toks[i - 1]);
      if (tag === 'break') flush();
      else {
        // A participle after a noun starts a new clause ("the herons watched us"), not a modifier.
        if (tag === 'participle' && run.length && run[run.length - 1]!.tag === 'noun') flush();
        run.push({ tok, tag });
      }
    });
    flush();
  }
  return out;
}

const headOf = (phrase: string) => phrase.split(' ').pop() ?? phrase;
/** Whether a phrase is about time or an abstraction ("every sunday", "whole life") rather than a thing to look for. */
export const isAbstract = (phrase: string) => ABSTRACT.has(headOf(phrase));

/**
 * Key phrases, most salient first: noun phrases scored by the sum of their words'
 * degree/frequency (RAKE); capitalised names weigh more, feeling words and time or abstract
 * heads less, so things one could look for at the place come first.
 */
export function keyPhrases(text: string, max = 5): string[] {
  const days = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/;
  const named = new Set((text.match(/(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+/g) ?? []).map((w) => w.toLowerCase()).filter((w) => !days.test(w)));
  const phrases = nounPhrases(text);
  const freq = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const p of phrases) {
    for (const w of p) {
      freq.set(w, (freq.get(w) ?? 0) + 1);
      degree.set(w, (degree.get(w) ?? 0) + p.length);
    }
  }
  const scored = new Map<string, number>();
  for (const p of phrases) {
    const key = p.join(' ');
    let s = p.reduce((sum, w) => sum + (degree.get(w)! / freq.get(w)!) * (named.has(w) ? 1.5 : 1) * (w in LEXICON ? 0.8 : 1), 0);
    if (isAbstract(key)) s *= 0.25;
    scored.set(key, Math.max(scored.get(key) ?? 0, s));
  }
  const ranked = [...scored.entries()].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length).map(([k]) => k);
  // Drop phrases wholly contained in a better-ranked one.
  const out: string[] = [];
  for (const p of ranked) {
    if (out.some((o) => ` ${o} `.includes(` ${p} `))) continue;
    out.push(p);
    if (out.length === max) break;
  }
  return out;
}

// --- Themes ----------------------------------------------------------------------------------

/** What makes a memory matter beyond feeling words: each theme's weight in resonance and its lean in mood. */
export const THEMES: Readonly<Record<string, { weight: number; lean: number; cues: RegExp }>> = {
  family: {
    weight: 1.3,
    lean: 1,
    cues: /\b(grand(?:father|mother|pa|ma|dad|parents?|kids?|children|son|daughter)s?|granny|nana|nan|gran|mom|moms|mum|mums|mother|mothers|dad|dads|father|fathers|papa|mama|parents?|sisters?|brothers?|sons?|daughters?|aunts?|auntie|uncles?|cousins?|wife|husband|kids|children|babies|baby|famil(?:y|ies)|nieces?|nephews?|siblings?)\b/gi,
  },
  ritual: {
    weight: 1,
    lean: 0.5,
    cues: /\b(every|each)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday|week(?:end)?|morning|evening|night|summer|winter|spring|fall|autumn|year|christmas|birthday|day)s?\b|\bused to\b|\btraditions?\b|\britual\b|\bannual\b|\bfor years\b|\byear after year\b|\bevery time\b/gi,
  },
  childhood: {
    weight: 1,
    lean: 0.5,
    cues: /\bwhen (?:i|we) (?:was|were) (?:a kid|kids|little|young|small|a child|children|\w+ years old|\d+)\b|\bas (?:a kid|kids|a child|children|a (?:little )?(?:girl|boy))\b|\bchildhood\b|\bgrew up\b|\byears old\b|\blittle (?:girl|boy)\b/gi,
  },
  teaching: { weight: 1, lean: 1, cues: /\b(?:taught|showed|teaching|told) (?:me|us)\b|\blearn(?:ed|t) to\b|\bheld my hand\b/gi },
  love: {
    weight: 1.3,
    lean: 2,
    cues: /\b(?:in love|fell for|first date|first kiss|kissed|proposed|engaged|wedding|married|honeymoon|anniversary|sweetheart|girlfriend|boyfriend|partner|love of my life)\b/gi,
  },
  loss: {
    weight: 1.6,
    lean: -2,
    cues: /\b(?:passed away|passed on|died|death|funeral|memorial|grave|ashes|last time|never again|miss (?:him|her|them|you|it)|lost (?:him|her|my)|no longer (?:here|with us)|goodbye)\b/gi,
  },
  milestone: { weight: 0.8, lean: 1, cues: /\b(?:was born|birthday|graduat(?:ed|ion)|first (?:day|time|home|apartment|job|steps)|moved here|retired)\b/gi },
};

export interface Theme {
  name: string;
  /** The words that showed it, as written. */
  evidence: string[];
}

/** The themes a memory touches, each with the words that showed it. */
export function themesOf(text: string): Theme[] {
  const out: Theme[] = [];
  for (const [name, t] of Object.entries(THEMES)) {
    const evidence = [...new Set((text.match(t.cues) ?? []).map((m) => m.toLowerCase()))];
    if (evidence.length) out.push({ name, evidence });
  }
  return out;
}

/** The lexicon's sentiment with the themes' leaning added: a grandfather's Sunday lesson is warm though no word says so. */
export function withThemes(s: Sentiment, themes: readonly Theme[]): Sentiment {
  let { score, magnitude, positive, negative } = s;
  for (const t of themes) {
    const lean = THEMES[t.name]!.lean;
    score += lean;
    magnitude += Math.abs(lean);
    if (lean > 0) positive += lean;
    else negative -= lean;
  }
  return { score, magnitude, positive, negative, label: labelOf(score, magnitude, positive, negative) };
}

function labelOf(score: number, magnitude: number, positive: number, negative: number): Sentiment['label'] {
  // One mild word ("cold pizza") does not make a mood.
  if (magnitude < 1.5) return 'neutral';
  if (positive > 0 && negative > 0 && Math.min(positive, negative) / Math.max(positive, negative) > 0.4) return 'mixed';
  return score >= 0 ? 'positive' : 'negative';
}

export interface Sentiment {
  /** Sum of signed valences after negation and intensifiers. */
  score: number;
  /** Sum of their absolute values: how much feeling, whatever its sign. */
  magnitude: number;
  positive: number;
  negative: number;
  label: 'positive' | 'negative' | 'mixed' | 'neutral';
}

/** Lexicon sentiment: a negation within the three words before a feeling word flips and halves it. */
export function sentiment(text: string): Sentiment {
  const toks = tokenize(text);
  let score = 0;
  let magnitude = 0;
  let positive = 0;
  let negative = 0;
  toks.forEach((tok, i) => {
    const base = LEXICON[tok];
    if (!base) return;
    let v = base;
    const before = toks.slice(Math.max(0, i - 3), i);
    if (before.some((b) => NEGATIONS.has(b))) v = -v * 0.5;
    const prev = toks[i - 1];
    if (prev && INTENSIFIERS[prev]) v *= INTENSIFIERS[prev];
    score += v;
    magnitude += Math.abs(v);
    if (v > 0) positive += v;
    else negative -= v;
  });
  return { score, magnitude, positive, negative, label: labelOf(score, magnitude, positive, negative) };
}

/**
 * 0..10 with one decimal: saturating in the amount of feeling (of the lexicon's words, `s`) and
 * in the themes that make a memory matter, so a few strong words or a family ritual reach 6 to 8.
 */
export function emotionalResonance(s: Sentiment, wordCount: number, themes: readonly Theme[] = []): number {
  const density = wordCount ? s.magnitude / Math.sqrt(wordCount) : 0;
  const themed = themes.reduce((sum, t) => sum + THEMES[t.name]!.weight * Math.min(2, 1 + (t.evidence.length - 1) * 0.25), 0);
  const r = 10 * (1 - Math.exp(-(s.magnitude / 10 + density / 2 + themed * 0.35)));
  return Math.round(Math.min(10, Math.max(0, r)) * 10) / 10;
}

/** Named places, numbers and dates in the memory: the more of them, the harder the hunt. */
export function specificity(text: string): { names: number; numbers: number; dates: number } {
  const names = new Set(text.match(/(?<![.!?]\s|^)\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*/g) ?? []).size;
  const numbers = (text.match(/\b\d+(?:[.:]\d+)?\b/g) ?? []).length;
  const dates = (text.match(MONTHS) ?? []).length;
  return { names, numbers, dates };
}

/** easy .. expert from length (words) and specificity. */
export function difficultyOf(wordCount: number, spec: { names: number; numbers: number; dates: number }): Difficulty {
  const score = Math.min(wordCount / 40, 3) + spec.names * 0.6 + spec.numbers * 0.4 + spec.dates * 0.5;
  if (score < 1.2) return 'easy';
  if (score < 2.5) return 'medium';
  if (score < 4) return 'hard';
  return 'expert';
}

const BASE_REWARD: Record<Difficulty, number> = { easy: 10, medium: 20, hard: 35, expert: 50 };

/** Points for finding it: more for harder and more heartfelt memories. */
export function rewardPoints(difficulty: Difficulty, resonance: number): number {
  return BASE_REWARD[difficulty] + Math.round(resonance * 2);
}

// --- Geocoding ------------------------------------------------------------------------------

export interface KnownPlace {
  name: string;
  /** A landmark is a place of the Quest Map (its name, or the address it shows). */
  kind: 'neighbourhood' | 'venue' | 'landmark';
  lat: number;
  lng: number;
  neighbourhood: string | null;
}

const normal = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\b(the|st|saint)\b\.?/g, (m) => (m.startsWith('st') || m.startsWith('saint') ? 'st' : ''))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const bigrams = (s: string) => {
  const t = ` ${s} `;
  const out = new Map<string, number>();
  for (let i = 0; i < t.length - 1; i++) out.set(t.slice(i, i + 2), (out.get(t.slice(i, i + 2)) ?? 0) + 1);
  return out;
};

/** Sørensen–Dice similarity of character bigrams, 0..1. */
export function similarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  let both = 0;
  let total = 0;
  for (const [k, n] of x) {
    both += Math.min(n, y.get(k) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total ? (2 * both) / total : 0;
}

/** 1 - (edit distance with transpositions) / longer length: forgiving of typos like "Hawthrone". */
export function editSimilarity(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (!n || !m) return 0;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return 1 - d[n]![m]! / Math.max(n, m);
}

/**
 * The known place the author meant: an exact or contained name wins (venues and landmarks
 * before neighbourhoods, longer names first), else the most similar name of the text or of any of its
 * word windows, when similar enough (typos like "Hawthrone").
 */
export function geocode(locationText: string, places: readonly KnownPlace[]): KnownPlace | null {
  const text = normal(locationText);
  if (!text) return null;
  const padded = ` ${text} `;
  const contained = places
    .filter((p) => normal(p.name).length >= 3 && padded.includes(` ${normal(p.name)} `))
    .sort((a, b) => (a.kind === 'neighbourhood') === (b.kind === 'neighbourhood') ? normal(b.name).length - normal(a.name).length : a.kind === 'neighbourhood' ? 1 : -1);
  if (contained[0]) return contained[0];
  const words = text.split(' ');
  const windows = new Set<string>([text]);
  for (let n = 1; n <= Math.min(4, words.length); n++) for (let i = 0; i + n <= words.length; i++) windows.add(words.slice(i, i + n).join(' '));
  let best: { place: KnownPlace; score: number } | null = null;
  for (const p of places) {
    const name = normal(p.name);
    for (const w of windows) {
      if (w.length < 4) continue;
      const s = Math.max(similarity(w, name), editSimilarity(w, name));
      if (!best || s > best.score) best = { place: p, score: s };
    }
  }
  return best && best.score >= 0.75 ? best.place : null;
}

// --- Composition ----------------------------------------------------------------------------

export interface ForgeInput {
  location: string;
  memory: string;
  symbolicElements: string;
  userContext: string;
  outputType: OutputType;
}

export interface ForgeFacts {
  keyPhrases: string[];
  /** The lexicon's sentiment with the themes' leaning. */
  sentiment: Sentiment;
  /** Names of the themes the memory touches (family, ritual, ...). */
  themes: string[];
  resonance: number;
  difficulty: Difficulty;
  reward: number;
  place: KnownPlace | null;
  codex: CodexEntry[];
  elements: string[];
}

export interface ForgeTexts {
  symbol: string;
  story_trigger: string;
  AR_overlay: string;
}

const title = (s: string) => s.replace(/\b([a-z])/g, (m) => m.toUpperCase());

const MOOD: Record<Sentiment['label'], { word: string; colour: string; verb: string }> = {
  positive: { word: 'Radiant', colour: 'golden', verb: 'glows warmly' },
  negative: { word: 'Somber', colour: 'deep blue', verb: 'flickers softly' },
  mixed: { word: 'Bittersweet', colour: 'violet and amber', verb: 'pulses between two colours' },
  neutral: { word: 'Quiet', colour: 'silver', verb: 'hovers still' },
};

const SHAPES: Record<OutputType, string> = {
  'Memory Rune': 'carved rune stone',
  'Story Unlock': 'half-open book of light',
  'Emotional XP': 'rising ring of sparks',
  'Map Marker': 'tall waymarker pin',
  'Audio Memory': 'rippling sound wave',
};

/** Splits the optional symbolic elements ("a red kite, grandma's bench") into items, without their leading article or "my". */
export function elementsOf(symbolicElements: string): string[] {
  return symbolicElements
    .split(/[,;\n]|\band\b/)
    .map((s) => s.trim().replace(/^(?:a|an|the|my|our|his|her|their)\s+/i, ''))
    .filter((s) => s.length > 1)
    .slice(0, 4);
}

/** A noun phrase with "the" in front, unless it is a name ("the herons", "Anna"). */
function withThe(phrase: string, memory: string): string {
  // Capitalised inside a sentence, never lower-case: a name (a capital at a sentence's start is no sign).
  const capitalised = new Set((memory.match(/(?<![.!?\u2026]\s)(?<!^)\b[A-Z][a-z]+/g) ?? []).map((w) => w.toLowerCase()));
  const named = phrase.split(' ').every((w) => capitalised.has(w) && !new RegExp(`\\b${w}\\b`).test(memory));
  return named ? title(phrase) : `the ${phrase}`;
}

/** The built-in symbol, story trigger and AR overlay from the facts. */
export function composeTexts(input: ForgeInput, f: ForgeFacts): ForgeTexts {
  // Things one could look for at the place before times and abstractions ("every sunday", "life").
  // The place itself is no clue to look for at the place.
  const placeWords = ` ${[input.location, f.place?.name ?? ''].join(' ').toLowerCase()} `;
  const concrete = f.keyPhrases.filter((p) => !isAbstract(p) && !placeWords.includes(` ${p} `));
  const isPerson = (p: string) => PEOPLE.test(headOf(p));
  // Things before people: "the stones" is a clue one can look for, "the grandfather" is not.
  concrete.sort((a, b) => Number(isPerson(a)) - Number(isPerson(b)));
  const main = title(f.elements[0] ?? concrete[0] ?? (input.location || 'memory'));
  const secondPhrase = concrete.find((p) => title(p) !== main) ?? concrete[0];
  const second = secondPhrase ? withThe(secondPhrase, input.memory) : 'what happened here';
  const where = f.place?.name ?? input.location;
  const mood = MOOD[f.sentiment.label];
  const symbol = {
    'Memory Rune': `Rune of the ${main}`,
    'Story Unlock': `The ${main} Chronicle`,
    'Emotional XP': `${mood.word} Spark of ${main}`,
    'Map Marker': `${title(where)} Waymark: ${main}`,
    'Audio Memory': `Echo of the ${main}`,
  }[input.outputType];
  const action = {
    'Memory Rune': 'trace the rune',
    'Story Unlock': 'open the chapter',
    'Emotional XP': 'catch the spark',
    'Map Marker': 'claim the marker',
    'Audio Memory': 'listen for the echo',
  }[input.outputType];
  const feeling = f.sentiment.label === 'neutral' ? '' : ` and recall something ${f.sentiment.label === 'negative' ? 'you lost' : f.sentiment.label === 'mixed' ? 'both sweet and sad' : 'that made you smile'}`;
  const story_trigger = `Stand at ${where}, look for ${f.elements[0] ? `the ${f.elements[0]}` : `signs of ${second}`}${feeling}, then ${action} to unlock the memory of ${second}.`;
  const extra = f.elements.length > 1 ? `, with ${f.elements.slice(1).join(' and ')} orbiting it` : '';
  const AR_overlay = `A ${mood.colour} ${SHAPES[input.outputType]} marked “${main}” ${mood.verb} above ${where}${extra}; its glow is ${f.resonance >= 7 ? 'bright' : f.resonance >= 4 ? 'steady' : 'faint'} (resonance ${f.resonance}/10).`;
  return { symbol: symbol.slice(0, 120), story_trigger: story_trigger.slice(0, 500), AR_overlay: AR_overlay.slice(0, 500) };
}

/** Facts of a memory: everything but the place's codex, which needs the database. */
export function analyse(input: ForgeInput, place: KnownPlace | null, codex: CodexEntry[]): ForgeFacts {
  const text = [input.memory, input.userContext].filter(Boolean).join('. ');
  const words = tokenize(input.memory).length;
  const lexical = sentiment(text);
  const themes = themesOf(text);
  const resonance = emotionalResonance(lexical, words, themes);
  const difficulty = difficultyOf(words, specificity(input.memory));
  return {
    keyPhrases: keyPhrases(input.memory),
    sentiment: withThemes(lexical, themes),
    themes: themes.map((t) => t.name),
    resonance,
    difficulty,
    reward: rewardPoints(difficulty, resonance),
    place,
    codex,
    elements: elementsOf(input.symbolicElements),
  };
}
