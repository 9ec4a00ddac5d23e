import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../test/test-db.ts';
import type { Db } from './client.ts';
import { createStatisticsKeeper } from './statistics.ts';

const fakeDb = () => {
  const execute = vi.fn(async () => ({ rows: [] }));
  return { execute, db: { execute } as unknown as Db };
};

afterEach(() => vi.useRealTimers());

describe('createStatisticsKeeper', () => {
  it('analyses the embedded database once after a burst of changes', async () => {
    vi.useFakeTimers();
    const { execute, db } = fakeDb();
    const keeper = createStatisticsKeeper({ kind: 'pglite', db }, 2000, 30_000);
    keeper.changed();
    keeper.changed();
    keeper.changed();
    expect(execute).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(execute).toHaveBeenCalledTimes(1);
    // The next change waits out the minimum interval.
    keeper.changed();
    await vi.advanceTimersByTimeAsync(2000);
    expect(execute).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(28_000);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('analyses only the stale tables of a PostgreSQL server', async () => {
    vi.useFakeTimers();
    const execute = vi.fn(async (q: unknown) => {
      const text = JSON.stringify(q);
      return { rows: text.includes('pg_stat_user_tables') ? [{ name: 'events', vacuum: false }, { name: 'odd"name', vacuum: false }] : [] };
    });
    const keeper = createStatisticsKeeper({ kind: 'postgres', db: { execute } as unknown as Db }, 10);
    await keeper.now();
    expect(execute).toHaveBeenCalledTimes(2);
    expect(JSON.stringify(execute.mock.calls[1]![0])).toContain('analyze \\"events\\", \\"odd\\"\\"name\\"');
    // After a change, only events is analysed, and only when stale.
    keeper.changed();
    await vi.advanceTimersByTimeAsync(30_000);
    await keeper.stop();
    expect(execute).toHaveBeenCalledTimes(4);
    expect(JSON.stringify(execute.mock.calls[3]![0])).toContain('analyze \\"events\\"');
    expect(JSON.stringify(execute.mock.calls[3]![0])).not.toContain('odd');
  });

  it('vacuums the tables autovacuum would, and analyses the rest', async () => {
    const execute = vi.fn(async (q: unknown) => ({ rows: JSON.stringify(q).includes('pg_stat_user_tables') ? [{ name: 'events', vacuum: true }, { name: 'venues', vacuum: false }] : [] }));
    await createStatisticsKeeper({ kind: 'postgres', db: { execute } as unknown as Db }).now();
    const statements = execute.mock.calls.slice(1).map((c) => JSON.stringify(c[0]));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('vacuum (analyze) \\"events\\"');
    expect(statements[1]).toContain('analyze \\"venues\\"');
    expect(statements[1]).not.toContain('vacuum');
  });

  it('leaves a server whose statistics are fresh alone', async () => {
    const { execute, db } = fakeDb();
    await createStatisticsKeeper({ kind: 'postgres', db }).now();
    // The staleness query only: nothing to analyse.
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('gives the planner real row counts, and on PostgreSQL vacuums a table past the insert rule', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`insert into venues (name) select 'Hall ' || i from generate_series(1, 1500) as i`);
      if (database.kind === 'postgres') {
        // The server publishes a backend's row counts within a second or so of its commit.
        for (let i = 0; i < 100; i++) {
          const { rows } = (await database.db.execute(sql`select n_mod_since_analyze::int as n from pg_stat_user_tables where relname = 'venues' and schemaname = current_schema()`)) as unknown as { rows: { n: number }[] };
          if ((rows[0]?.n ?? 0) >= 1500) break;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await createStatisticsKeeper(database).now();
      const { rows } = (await database.db.execute(sql`select reltuples::int as n from pg_class where relname = 'venues' and relnamespace = current_schema()::regnamespace`)) as unknown as { rows: { n: number }[] };
      expect(rows[0]?.n).toBe(1500);
      if (database.kind === 'postgres') {
        // 1,500 rows inserted pass autovacuum's insert rule: the table was vacuumed too.
        const { rows: vacuumed } = (await database.db.execute(sql`select last_vacuum is not null as done from pg_stat_user_tables where relname = 'venues' and schemaname = current_schema()`)) as unknown as { rows: { done: boolean }[] };
        expect(vacuumed[0]?.done).toBe(true);
      }
    } finally {
      await database.close();
    }
  });
});
