import { performance } from 'node:perf_hooks';
import { AI_FEATURES, type AiFeature, type AiFeatureStatus } from '../../../contract/admin.ts';
import type { LlmClient } from '../../lib/llm.ts';

/** How many recent calls a feature's latency is averaged over. */
const RECENT = 50;

const LABELS: Record<AiFeature, string> = {
  classification: 'Event classification',
  recommendations: 'Recommendations',
  ocr: 'Flyer reading (OCR)',
  stories: 'Story generation',
  memory_forge: 'Memory forge',
  assistant: 'Admin assistant',
};

/** The offline engine each feature falls back to (decisions.md section 6). */
const BUILT_IN: Record<AiFeature, string> = {
  classification: 'Built-in event classifier (logistic regression, offline)',
  recommendations: 'Built-in ranking (favourites, categories, distance)',
  ocr: 'Built-in OCR (tesseract.js, eng)',
  stories: 'Built-in story engine',
  memory_forge: 'Built-in memory engine',
  assistant: 'Built-in command assistant',
};

interface Samples {
  recent: number[];
  /** Whether each recent call succeeded, in the same order. */
  recentOk: boolean[];
  calls: number;
  failures: number;
  lastUsedAt: Date | null;
  /** The model this feature asks, when it was wired to one. */
  model: string | null;
}

/**
 * In-memory latency of each AI feature on this instance: features (or the LLM client they were
 * given) report each call's duration; GET /api/admin/ai-status reads the figures.
 */
export function createAiMonitor(now: () => Date) {
  const byFeature = new Map<AiFeature, Samples>(AI_FEATURES.map((f) => [f, { recent: [], recentOk: [], calls: 0, failures: 0, lastUsedAt: null, model: null }]));
  const get = (f: AiFeature) => byFeature.get(f)!;

  function record(feature: AiFeature, ms: number, ok = true) {
    const s = get(feature);
    s.recent.push(ms);
    s.recentOk.push(ok);
    if (s.recent.length > RECENT) {
      s.recent.shift();
      s.recentOk.shift();
    }
    s.calls += 1;
    if (!ok) s.failures += 1;
    s.lastUsedAt = now();
  }

  /** Runs one call of a feature's engine and records how long it took (and whether it threw). */
  async function time<T>(feature: AiFeature, fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      const out = await fn();
      record(feature, performance.now() - start, true);
      return out;
    } catch (err) {
      record(feature, performance.now() - start, false);
      throw err;
    }
  }

  return {
    record,
    time,
    /** The same client, timing each request under `feature`; marks the feature as served by the model. */
    wrapLlm<C extends LlmClient | null>(feature: AiFeature, client: C): C {
      if (!client) return client;
      get(feature).model = client.model;
      const wrapped: LlmClient = { model: client.model, chat: (messages, options) => time(feature, () => client.chat(messages, options)) };
      return wrapped as C;
    },
    /** True when a feature served by the model failed most of its recent calls (at least 3). */
    modelFailing(): boolean {
      return AI_FEATURES.some((f) => {
        const s = get(f);
        const failed = s.recentOk.filter((ok) => !ok).length;
        return s.model !== null && s.recentOk.length >= 3 && failed * 2 > s.recentOk.length;
      });
    },
    /** One row per AI feature: engine, model, recent mean latency and call counts. */
    status(): AiFeatureStatus[] {
      return AI_FEATURES.map((feature) => {
        const s = get(feature);
        const mean = s.recent.length ? s.recent.reduce((a, b) => a + b, 0) / s.recent.length : null;
        return {
          feature,
          label: LABELS[feature],
          engine: s.model ? ('model' as const) : ('built-in' as const),
          model: s.model ?? BUILT_IN[feature],
          latencyMs: mean === null ? null : Math.round(mean * 10) / 10,
          calls: s.calls,
          failures: s.failures,
          lastUsedAt: s.lastUsedAt?.toISOString() ?? null,
        };
      });
    },
  };
}

export type AiMonitor = ReturnType<typeof createAiMonitor>;
