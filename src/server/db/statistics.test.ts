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

  it('leaves a PostgreSQL server to its autovacuum', async () => {
    vi.useFakeTimers();
    const { execute, db } = fakeDb();
    const keeper = createStatisticsKeeper({ kind: 'postgres', db }, 10);
    keeper.changed();
    await keeper.now();
    await vi.advanceTimersByTimeAsync(100);
    expect(execute).not.toHaveBeenCalled();
  });

  // With TEST_DATABASE_URL the suite runs on a server, whose autovacuum analyses by itself.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))('gives the planner real row counts on the embedded database', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`insert into venues (name) select 'Hall ' || i from generate_series(1, 500) as i`);
      await createStatisticsKeeper(database).now();
      const { rows } = (await database.db.execute(sql`select reltuples::int as n from pg_class where relname = 'venues'`)) as unknown as { rows: { n: number }[] };
      expect(rows[0]?.n).toBe(500);
    } finally {
      await database.close();
    }
  });
});
