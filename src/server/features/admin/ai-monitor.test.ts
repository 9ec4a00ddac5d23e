import { describe, expect, it } from 'vitest';
import type { LlmClient } from '../../lib/llm.ts';
import { createAiMonitor } from './ai-monitor.ts';

const at = new Date('2026-11-18T20:00:00Z');

describe('AI monitor', () => {
  it('marks a feature as served by the model once its client is wrapped, and times each call', async () => {
    const m = createAiMonitor(() => at);
    let fail = false;
    const client: LlmClient = {
      model: 'llama3.1:8b',
      async chat() {
        if (fail) throw new Error('down');
        return 'ok';
      },
    };
    const wrapped = m.wrapLlm('stories', client);
    expect(m.wrapLlm('assistant', null)).toBeNull();
    expect(await wrapped.chat([{ role: 'user', content: 'hi' }])).toBe('ok');
    const stories = m.status().find((f) => f.feature === 'stories')!;
    expect(stories).toMatchObject({ engine: 'model', model: 'llama3.1:8b', calls: 1, failures: 0, lastUsedAt: at.toISOString() });
    expect(stories.latencyMs).toEqual(expect.any(Number));
    expect(m.status().find((f) => f.feature === 'assistant')).toMatchObject({ engine: 'built-in', calls: 0, latencyMs: null });

    // Most recent model calls failing: the AI status is degraded.
    expect(m.modelFailing()).toBe(false);
    fail = true;
    for (let i = 0; i < 3; i += 1) await expect(wrapped.chat([])).rejects.toThrow('down');
    expect(m.modelFailing()).toBe(true);
    expect(m.status().find((f) => f.feature === 'stories')).toMatchObject({ calls: 4, failures: 3 });
  });

  it('averages the recent latency of built-in engines', async () => {
    const m = createAiMonitor(() => at);
    m.record('recommendations', 10);
    m.record('recommendations', 30);
    expect(await m.time('recommendations', async () => 42)).toBe(42);
    const r = m.status().find((f) => f.feature === 'recommendations')!;
    expect(r).toMatchObject({ engine: 'built-in', calls: 3 });
    expect(m.modelFailing()).toBe(false);
  });
});
