// Event category classifier: a multinomial logistic regression over word, bigram, character
// n-gram and lexicon-rule features (features.ts, lexicon.ts), trained by
// scripts/train-classifier.ts into model.json. Pure and deterministic: no network, the model is
// read once from disk on first use.

import { readFileSync } from 'node:fs';
import { CATEGORIES, FEATURE_VERSION, extract, type Category, type EventText, type FeatureOptions } from './features.ts';

export type { Category } from './features.ts';

export interface Classification {
  category: 'Music' | 'Food' | 'Business' | 'Sports' | 'Arts' | 'Tech' | 'Wellness' | 'Other';
  /** Calibrated probability of the chosen category, in [0, 1]. */
  confidence: number;
}

export interface ClassifierInput {
  title: string;
  description?: string;
  venue?: string;
  categories?: string[];
}

/** The committed artefact (model.json). */
export interface ModelFile {
  format: 'townbeat-event-classifier';
  featureVersion: number;
  labels: Category[];
  featureOptions: FeatureOptions;
  /** Feature names; the weights of feature i are weights[i*K .. i*K+K-1]. */
  features: string[];
  weights: number[];
  bias: number[];
  /** Softmax temperature fitted on out-of-fold predictions (calibration). */
  temperature: number;
  /**
   * Distilled word vectors: for each word, its vector times the model's word-vector weights
   * (K numbers, projections[i*K ..]). An event adds the bag-weighted sum of its words' rows.
   */
  embedding?: { words: string[]; projections: number[] };
  /** A non-Other prediction below this probability becomes Other (0 disables). */
  otherThreshold: number;
  /** The model's mean probability per category (CATEGORIES order) on its training data: the prior one feed's batch is adapted from. */
  trainPriors?: number[];
  /** How it was trained and which annotated rows were held out (ids), for the evaluation test. */
  training: Record<string, unknown> & { heldOutIds: string[] };
}

export interface Classifier {
  classify(input: ClassifierInput): Classification;
  /** Probabilities per category, in CATEGORIES order (before the Other threshold). */
  probabilities(input: ClassifierInput): number[];
  /**
   * One feed's new events together: the category mix of the batch is re-estimated from the
   * events themselves (adaptPriors), so a makerspace's or a gig calendar's unsure events lean
   * towards what the feed mostly lists. A single event, or a model without priors, is classified alone.
   */
  classifyFeed(inputs: readonly ClassifierInput[]): Classification[];
}

export function createClassifier(model: ModelFile): Classifier {
  if (model.format !== 'townbeat-event-classifier') throw new Error('classifier: not a model file');
  if (model.featureVersion !== FEATURE_VERSION) {
    throw new Error(`classifier: model was trained with features v${model.featureVersion}, code has v${FEATURE_VERSION}: retrain`);
  }
  const K = model.labels.length;
  if (model.weights.length !== model.features.length * K || model.bias.length !== K) throw new Error('classifier: model shape mismatch');
  const labelIndex = model.labels.map((l) => CATEGORIES.indexOf(l));
  if (labelIndex.some((i) => i < 0)) throw new Error('classifier: unknown label in model');
  const index = new Map<string, number>();
  model.features.forEach((f, i) => index.set(f, i * K));
  const W = Float64Array.from(model.weights);
  const bias = Float64Array.from(model.bias);
  const invT = 1 / (model.temperature > 0 ? model.temperature : 1);
  const otherPos = model.labels.indexOf('Other');
  const embIndex = new Map<string, number>();
  model.embedding?.words.forEach((w, i) => embIndex.set(w, i * K));
  const P = Float64Array.from(model.embedding?.projections ?? []);
  if (P.length !== embIndex.size * K) throw new Error('classifier: embedding shape mismatch');
  const known = embIndex.size > 0 ? (w: string) => embIndex.has(w) : undefined;

  function probsInModelOrder(input: ClassifierInput): Float64Array {
    const z = Float64Array.from(bias);
    const { sparse, bag } = extract(toEventText(input), model.featureOptions, known);
    for (const [name, value] of sparse) {
      const off = index.get(name);
      if (off === undefined) continue;
      for (let k = 0; k < K; k++) z[k]! += value * W[off + k]!;
    }
    for (const [word, value] of bag) {
      const off = embIndex.get(word)!;
      for (let k = 0; k < K; k++) z[k]! += value * P[off + k]!;
    }
    let max = -Infinity;
    for (let k = 0; k < K; k++) max = Math.max(max, z[k]! * invT);
    let sum = 0;
    for (let k = 0; k < K; k++) {
      z[k] = Math.exp(z[k]! * invT - max);
      sum += z[k]!;
    }
    for (let k = 0; k < K; k++) z[k]! /= sum;
    return z;
  }

  /** The decision on probabilities in CATEGORIES order: the likeliest, or Other when none is likely enough. */
  const decide = (p: readonly number[]): Classification => {
    let best = 0;
    for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
    let category = CATEGORIES[best]!;
    let confidence = p[best]!;
    const other = CATEGORIES.indexOf('Other');
    if (other >= 0 && best !== other && confidence < model.otherThreshold) {
      category = 'Other';
      confidence = p[other]!;
    }
    return { category, confidence: clamp01(confidence) };
  };

  const classifier: Classifier = {
    classifyFeed(inputs) {
      if (!model.trainPriors || inputs.length < 2) return inputs.map((input) => classifier.classify(input));
      return adaptPriors(
        inputs.map((input) => classifier.probabilities(input)),
        model.trainPriors,
      ).map(decide);
    },
    probabilities(input) {
      const p = probsInModelOrder(input);
      const out = new Array<number>(CATEGORIES.length).fill(0);
      for (let k = 0; k < K; k++) out[labelIndex[k]!] = p[k]!;
      return out;
    },
    classify(input) {
      const p = probsInModelOrder(input);
      let best = 0;
      for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
      let category = model.labels[best]!;
      let confidence = p[best]!;
      if (otherPos >= 0 && best !== otherPos && confidence < model.otherThreshold) {
        // No category is likely enough: Other, with the model's own (low) probability for it.
        category = 'Other';
        confidence = p[otherPos]!;
      }
      return { category, confidence: clamp01(confidence) };
    },
  };
  return classifier;
}

function toEventText(input: ClassifierInput): EventText {
  return {
    title: typeof input.title === 'string' ? input.title : '',
    description: typeof input.description === 'string' ? input.description : undefined,
    venue: typeof input.venue === 'string' ? input.venue : undefined,
    categories: Array.isArray(input.categories) ? input.categories.filter((c) => typeof c === 'string') : undefined,
  };
}

function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, Math.round(x * 1e4) / 1e4));
}

export const MODEL_URL = new URL('./model.json', import.meta.url);

let defaultClassifier: Classifier | undefined;

/** The classifier of the committed model, loaded on first use. */
export function getClassifier(): Classifier {
  defaultClassifier ??= createClassifier(JSON.parse(readFileSync(MODEL_URL, 'utf8')) as ModelFile);
  return defaultClassifier;
}

export function classify(input: ClassifierInput): Classification {
  return getClassifier().classify(input);
}

/** One feed's new events, adapted to the feed's category mix (see Classifier.classifyFeed). */
export function classifyFeed(list: readonly ClassifierInput[]): Classification[] {
  return getClassifier().classifyFeed(list);
}

export function classifyMany(list: readonly ClassifierInput[]): Classification[] {
  const c = getClassifier();
  return list.map((input) => c.classify(input));
}

/**
 * Class-prior adaptation for one source's batch of events (Saerens, Latinne & Decaestecker 2002):
 * EM re-estimates the batch's category mix from the model's probabilities, then reweights them,
 * so a feed that is mostly one category (a makerspace, a gig calendar) shifts its uncertain
 * events towards it. `trainPriors` is the model's mean probability on its training data;
 * `strength` is a Dirichlet pseudo-count towards it, so a small batch moves little.
 * Returns the adapted probabilities (same order), each summing to 1.
 */
export function adaptPriors(probs: readonly (readonly number[])[], trainPriors: readonly number[], strength = 10, iterations = 50): number[][] {
  const K = trainPriors.length;
  const n = probs.length;
  if (n === 0) return [];
  const base = trainPriors.map((v) => Math.max(v, 1e-6));
  let prior = base.slice();
  const reweight = (p: readonly number[]): number[] => {
    const q = p.map((v, k) => (v * prior[k]!) / base[k]!);
    const s = q.reduce((a, b) => a + b, 0) || 1;
    return q.map((v) => v / s);
  };
  for (let it = 0; it < iterations; it++) {
    const sums = new Array<number>(K).fill(0);
    for (const p of probs) reweight(p).forEach((v, k) => (sums[k]! += v));
    const next = sums.map((v, k) => (v + strength * base[k]!) / (n + strength));
    const delta = next.reduce((a, v, k) => a + Math.abs(v - prior[k]!), 0);
    prior = next;
    if (delta < 1e-6) break;
  }
  // One last pass with the converged prior.
  return probs.map(reweight);
}
