import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** How long after a change the embedded database's statistics are refreshed. */
export const ANALYZE_DELAY_MS = 2000;
/** At most one refresh after changes this often (a favourite toggled publishes a change too). */
export const ANALYZE_MIN_INTERVAL_MS = 30_000;

/**
 * Planner statistics for the embedded database. PostgreSQL's autovacuum keeps them on a server;
 * PGlite has no autovacuum, so without this every table looks empty to the planner, which then
 * picks plans five times slower (a 24-event page of the demo city: 12 ms against 1.9 ms). The
 * tables are analysed when the database opens and shortly after events change (debounced).
 */
export function createStatisticsKeeper(database: Pick<Database, 'kind' | 'db'>, delayMs = ANALYZE_DELAY_MS, minIntervalMs = ANALYZE_MIN_INTERVAL_MS) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let last = -Infinity;
  const analyze = (what = sql`analyze`) => {
    last = Date.now();
    running = running
      .then(() => database.db.execute(what))
      .then(
        () => undefined,
        () => undefined,
      );
    return running;
  };
  return {
    /** Analyses now (the embedded database only); resolves when done. */
    now: () => (database.kind === 'pglite' ? analyze() : Promise.resolve()),
    /** Events changed: analyse once things settle. */
    changed() {
      if (database.kind !== 'pglite' || timer) return;
      timer = setTimeout(
        () => {
          timer = null;
          void analyze(sql`analyze events`);
        },
        Math.max(delayMs, last + minIntervalMs - Date.now()),
      );
      timer.unref();
    },
    /** Stops a pending refresh and waits for one under way. */
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
