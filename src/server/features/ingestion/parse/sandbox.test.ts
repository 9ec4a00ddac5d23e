import { afterAll, describe, expect, it } from 'vitest';
import { SourceError } from '../ingestion.types.ts';
import { createSandbox, type Sandbox } from './sandbox.ts';

const base = { now: new Date('2026-01-01T00:00:00Z'), timeZone: 'Europe/Berlin', horizonDays: 180, maxOccurrences: 500 };

function bigCalendar(events: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN'];
  for (let i = 0; i < events; i++) {
    lines.push('BEGIN:VEVENT', `UID:e${i}`, `DTSTART;TZID=Europe/Berlin:202602${String((i % 28) + 1).padStart(2, '0')}T190000`, `SUMMARY:Event ${i} ${'x'.repeat(200)}`, `DESCRIPTION:${'Lorem ipsum dolor sit amet. '.repeat(20)}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

/** Small but slow: COUNT rules are expanded from DTSTART, up to the iteration budgets (seconds). */
function slowCalendar(): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  for (let i = 0; i < 40; i++) lines.push('BEGIN:VEVENT', `UID:slow${i}`, 'DTSTART:20200101T000000Z', 'RRULE:FREQ=SECONDLY;COUNT=100000000', `SUMMARY:Slow ${i}`, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

const small = ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:a', 'DTSTART;TZID=Europe/Berlin:20260115T190000', 'SUMMARY:Small', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');
const sandboxes: Sandbox[] = [];
const make = (opts: Parameters<typeof createSandbox>[0]) => {
  const s = createSandbox(opts);
  sandboxes.push(s);
  return s;
};

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('parse sandbox', () => {
  it('parses in a child process, returns Dates intact and reuses the process', async () => {
    const sandbox = make({ poolSize: 1 });
    for (let i = 0; i < 3; i++) {
      const out = await sandbox.run('ical', { ...base, text: small });
      expect(out.candidates[0]!.start).toBeInstanceOf(Date);
      expect(out.candidates[0]!.start.toISOString()).toBe('2026-01-15T18:00:00.000Z');
    }
    expect(sandbox.stats.started).toBe(1);
  });

  it("passes a parser's SourceError through", async () => {
    const sandbox = make({ poolSize: 1 });
    const err = await sandbox.run('ical', { ...base, text: '<html></html>' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toBe('not an iCalendar file (no BEGIN:VCALENDAR)');
  });

  it('stops a parse that takes too long, and the next parse gets a fresh process', async () => {
    const sandbox = make({ poolSize: 1, timeoutMs: 1000 });
    await sandbox.run('ical', { ...base, text: small }); // warm (the limit counts from when parsing starts, not loading)
    const started = Date.now();
    const err = await sandbox.run('ical', { ...base, text: slowCalendar() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toBe('parsing took longer than 1 s');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(sandbox.stats.timedOut).toBe(1);
    const out = await sandbox.run('ical', { ...base, text: small });
    expect(out.candidates).toHaveLength(1);
    expect(sandbox.stats.started).toBe(2);
  }, 120_000);

  it('stops a parse that needs more memory than the limit', async () => {
    const sandbox = make({ poolSize: 1, maxOldGenerationSizeMb: 16, timeoutMs: 60_000 });
    const err = await sandbox.run('ical', { ...base, text: bigCalendar(20_000) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toBe('parsing needed more than 16 MB of memory');
    expect((await sandbox.run('ical', { ...base, text: small })).candidates).toHaveLength(1);
  }, 120_000);

  it('runs jobs side by side up to the pool size and queues the rest', async () => {
    const sandbox = make({ poolSize: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => sandbox.run('ical', { ...base, text: small })));
    expect(results.every((r) => r.candidates.length === 1)).toBe(true);
    expect(sandbox.stats.started).toBeLessThanOrEqual(2);
  });

  it("starts children without the server's secrets, passing only TZ and the loader's settings", async () => {
    const parentEnv = { SESSION_SECRET: 'session-secret', LLM_API_KEY: 'llm-key', DATABASE_URL: 'postgres://user:pw@db/townbeat', OIDC_CLIENT_SECRET: 'oidc-secret', NODE_OPTIONS: '--inspect', TZ: 'Pacific/Auckland' };
    const saved = Object.fromEntries(Object.keys(parentEnv).map((k) => [k, process.env[k]]));
    Object.assign(process.env, parentEnv);
    let childEnv: Record<string, string>;
    try {
      const sandbox = make({ poolSize: 1, workerUrl: new URL('./test-env.worker.ts', import.meta.url) });
      // The probe answers any job with its process.env instead of a parse result.
      childEnv = (await sandbox.run('ical', { ...base, text: small })) as unknown as Record<string, string>;
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    for (const secret of ['SESSION_SECRET', 'LLM_API_KEY', 'DATABASE_URL', 'OIDC_CLIENT_SECRET', 'NODE_OPTIONS']) expect(childEnv).not.toHaveProperty(secret);
    expect(childEnv.TZ).toBe('Pacific/Auckland');
    expect(Object.keys(childEnv).filter((k) => !['TZ', 'TMPDIR', 'TMP', 'TEMP', 'TSX_TSCONFIG_PATH', 'TSX_DISABLE_CACHE'].includes(k))).toEqual([]);
  });

  it('refuses work after close', async () => {
    const sandbox = make({ poolSize: 1 });
    await sandbox.close();
    await expect(sandbox.run('ical', { ...base, text: small })).rejects.toThrow('the parser is shut down');
  });
});
