import { readFileSync } from 'node:fs';

export interface ClassifierMetrics {
  accuracy: number | null;
  macroF1: number | null;
  evaluatedOn: string;
}

let cached: ClassifierMetrics | undefined;

/**
 * The committed model's measured held-out figures, read from EVALUATION.md (which the
 * classifier's evaluation test keeps in step with model.json).
 */
export function classifierMetrics(): ClassifierMetrics {
  if (cached) return cached;
  let text = '';
  try {
    text = readFileSync(new URL('./EVALUATION.md', import.meta.url), 'utf8');
  } catch {
    // No evaluation shipped: figures unknown.
  }
  const acc = /Held-out accuracy: \*\*([\d.]+)%\*\*/.exec(text);
  const f1 = /Held-out macro-F1: \*\*([\d.]+)\*\*/.exec(text);
  const on = /## Results on the held-out test set \(([^)]+)\)/.exec(text);
  cached = {
    accuracy: acc ? Number(acc[1]) / 100 : null,
    macroF1: f1 ? Number(f1[1]) : null,
    evaluatedOn: on?.[1] ?? 'not evaluated',
  };
  return cached;
}
