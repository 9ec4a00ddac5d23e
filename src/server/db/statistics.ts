import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** How long after the last change the embedded database's statistics are refreshed. */
export const ANALYZE_DELAY_MS = 2000;

/**
 * Planner statistics for the embedded database. PostgreSQL's autovacuum keeps them on a server;
 * PGlite has no autovacuum, so without this every table looks empty to the planner, which then
 * picks plans five times slower (a 24-event page of the demo city: 12 ms against 1.9 ms). The
 * tables are analysed when the database opens and shortly after events change (debounced).
 */
export function createStatisticsKeeper(database: Pick<Database, 'kind' | 'db'>, delayMs = ANALYZE_DELAY_MS) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const analyze = () => {
    running = running
      .then(() => database.db.execute(sql`analyze`))
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
      timer = setTimeout(() => {
        timer = null;
        void analyze();
      }, delayMs);
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
