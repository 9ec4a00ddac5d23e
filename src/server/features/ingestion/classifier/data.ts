// Loading the labelled fixtures (../shared/fixtures/labelled), the seeded held-out split and
// the metrics. Used by scripts/train-classifier.ts and by the evaluation test, so the split the
// report describes is the split the test recomputes. Nothing here runs in the server.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, type Category } from './features.ts';
import { seededRandom } from '../../../lib/random.ts';

/** ../shared/fixtures/labelled, beside the repository. */
export const LABELLED_DIR = fileURLToPath(new URL('../../../../../../shared/fixtures/labelled/', import.meta.url));
export const ANNOTATED_CSV = LABELLED_DIR + 'annotated.csv';

/** How strong a row's label is; 'project' rows are written and labelled by the project (project-examples.ts). */
export type Basis = 'annotated' | 'per-event' | 'calendar' | 'project';

export interface Row {
  id: string;
  title: string;
  description: string;
  venue: string;
  label?: Category;
  basis?: Basis;
  source: string;
}

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. First line is the header. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h.replace(/^\uFEFF/, ''), r[i] ?? ''])));
}

function toCategory(label: string): Category {
  if ((CATEGORIES as readonly string[]).includes(label)) return label as Category;
  // train.csv has one calendar's "Community" type: the boundaries put civic items under Other.
  return 'Other';
}

export function loadAnnotated(path = ANNOTATED_CSV): Row[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r) => ({
    id: r.id ?? '',
    title: r.title ?? '',
    description: r.description ?? '',
    venue: r.venue ?? '',
    label: toCategory(r.label ?? ''),
    basis: 'annotated' as const,
    source: r.source ?? '',
  }));
}

export function loadTrain(path = LABELLED_DIR + 'train.csv'): Row[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r, i) => ({
    id: `train:${i}`,
    title: r.title ?? '',
    description: r.description ?? '',
    venue: r.venue ?? '',
    label: toCategory(r.label ?? ''),
    basis: /calendar-level/i.test(r.label_basis ?? '') ? ('calendar' as const) : ('per-event' as const),
    source: r.source ?? '',
  }));
}

export function loadPool(path = LABELLED_DIR + 'pool.jsonl'): Row[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as Record<string, unknown>;
      const s = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
      return { id: s('id'), title: s('title'), description: s('description'), venue: s('venue'), source: s('source') };
    });
}

export function fixturesPresent(): boolean {
  return existsSync(ANNOTATED_CSV) && existsSync(LABELLED_DIR + 'train.csv') && existsSync(LABELLED_DIR + 'pool.jsonl');
}

/**
 * The key that decides "same title" for deduplication and grouping: lower case, accents
 * folded, a leading CANCELED:/POSTPONED: and any parenthesised part (library branch names)
 * dropped, punctuation ignored. Rows sharing a key are one group: never split between
 * training and test.
 */
export function titleKey(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\([^)]*\)?/g, ' ')
    .replace(/^\s*(?:canceled|cancelled|postponed|rescheduled|new date|achtung)\s*[:\-–]\s*/, '')
    .replace(/\b(?:canceled|cancelled)\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** mulberry32: small seeded PRNG so splits are identical on every machine. */
export const rng = seededRandom;

export function shuffle<T>(items: T[], random: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * Stratified, grouped assignment of rows to k folds: groups (same titleKey) stay together;
 * within each label (a group's first row's label), groups are shuffled with the seed and dealt
 * round-robin, so each fold gets about 1/k of every class.
 */
export function groupedStratifiedFolds(rows: Row[], k: number, seed: number): number[] {
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const key = titleKey(r.title);
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const byLabel = new Map<string, string[]>();
  for (const [key, idx] of groups) {
    const label = rows[idx[0]!]!.label ?? 'Other';
    const list = byLabel.get(label);
    if (list) list.push(key);
    else byLabel.set(label, [key]);
  }
  const fold = new Array<number>(rows.length).fill(0);
  const random = rng(seed);
  const sizes = new Array<number>(k).fill(0);
  // Labels in a fixed order; within a label, deal shuffled groups to the currently smallest fold
  // (ties: lowest index), which balances both the class and the overall fold sizes.
  for (const label of [...byLabel.keys()].sort()) {
    const perFold = new Array<number>(k).fill(0);
    for (const key of shuffle(byLabel.get(label)!, random)) {
      const idx = groups.get(key)!;
      let best = 0;
      for (let f = 1; f < k; f++) if (perFold[f]! < perFold[best]! || (perFold[f] === perFold[best] && sizes[f]! < sizes[best]!)) best = f;
      for (const i of idx) fold[i] = best;
      perFold[best]! += idx.length;
      sizes[best]! += idx.length;
    }
  }
  return fold;
}

/** The documented held-out split: 40% of annotated.csv (2 of 5 grouped stratified folds, seed below). */
export const HOLDOUT_SEED = 20260;
export const HOLDOUT_FOLDS = 5;
export const HOLDOUT_TEST_FOLDS = [0, 1];

export function heldOutSplit(annotated: Row[]): { train: Row[]; test: Row[] } {
  const folds = groupedStratifiedFolds(annotated, HOLDOUT_FOLDS, HOLDOUT_SEED);
  const train: Row[] = [];
  const test: Row[] = [];
  annotated.forEach((r, i) => (HOLDOUT_TEST_FOLDS.includes(folds[i]!) ? test : train).push(r));
  return { train, test };
}

export interface Metrics {
  n: number;
  accuracy: number;
  macroF1: number;
  perClass: Array<{ label: Category; support: number; predicted: number; precision: number; recall: number; f1: number }>;
  confusion: number[][];
}

/** Accuracy, macro-F1 over the labels present in the gold set, per-class P/R/F1 and confusion (rows gold, columns predicted). */
export function metrics(gold: Category[], predicted: Category[]): Metrics {
  const K = CATEGORIES.length;
  const confusion = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  let correct = 0;
  gold.forEach((g, i) => {
    const p = predicted[i]!;
    confusion[CATEGORIES.indexOf(g)]![CATEGORIES.indexOf(p)]!++;
    if (g === p) correct++;
  });
  const perClass = CATEGORIES.map((label, c) => {
    const tp = confusion[c]![c]!;
    const support = confusion[c]!.reduce((a, b) => a + b, 0);
    const pred = confusion.reduce((a, row) => a + row[c]!, 0);
    const precision = pred ? tp / pred : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    return { label, support, predicted: pred, precision, recall, f1 };
  });
  const present = perClass.filter((c) => c.support > 0);
  const macroF1 = present.reduce((a, c) => a + c.f1, 0) / Math.max(1, present.length);
  return { n: gold.length, accuracy: gold.length ? correct / gold.length : 0, macroF1, perClass, confusion };
}

/**
 * Cohen's kappa of two labellings of the same events: their agreement beyond what their label
 * frequencies alone would give by chance (1 identical, 0 no better than chance).
 */
export function cohensKappa(a: readonly Category[], b: readonly Category[]): number {
  if (a.length !== b.length) throw new Error('cohensKappa: the labellings differ in length');
  if (a.length === 0) return 0;
  const n = a.length;
  let observed = 0;
  const countA = new Map<Category, number>();
  const countB = new Map<Category, number>();
  a.forEach((x, i) => {
    if (x === b[i]) observed++;
    countA.set(x, (countA.get(x) ?? 0) + 1);
    countB.set(b[i]!, (countB.get(b[i]!) ?? 0) + 1);
  });
  const po = observed / n;
  let pe = 0;
  for (const [c, k] of countA) pe += (k / n) * ((countB.get(c) ?? 0) / n);
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}
