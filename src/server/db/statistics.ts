import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** How long after a change the statistics are refreshed. */
export const ANALYZE_DELAY_MS = 2000;
/** At most one refresh after changes this often (a favourite toggled publishes a change too). */
export const ANALYZE_MIN_INTERVAL_MS = 30_000;

/**
 * Tables due for upkeep by autovacuum's default rules: statistics are stale when more rows
 * changed since the last ANALYZE than 50 plus a tenth of the table; a VACUUM is due when dead rows
 * pass 50 plus a fifth of it, or rows inserted since the last one pass 1,000 plus a fifth (the
 * visibility map it sets is what lets lists read the covering indexes alone).
 */
const STALE_TABLES = sql`select relname::text as name,
    (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) as vacuum
  from pg_stat_user_tables
  where schemaname = current_schema()
    and (n_mod_since_analyze > 50 + 0.1 * n_live_tup or n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup)
  order by relname`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Planner statistics, kept by the app rather than left to chance. Without them the planner
 * believes a table empty and picks plans for one row:
 * - PGlite has no autovacuum: a 24-event page of the demo city took 12 ms instead of 1.9.
 * - A PostgreSQL server's autovacuum may be off (it is on this project's CI machine) or not have
 *   caught up after a large ingestion: over 100,000 freshly ingested events, the whole-listing
 *   count was planned as a nested loop over the table for each row and ran for hours.
 * The tables are analysed when the database opens and shortly after events change (debounced).
 * On the embedded database every table is analysed (cheap there); on a server only the tables
 * autovacuum's rules call due (vacuumed as well when they say so), so a working autovacuum leaves
 * nothing to do.
 */
export function createStatisticsKeeper(database: Pick<Database, 'kind' | 'db'>, delayMs = ANALYZE_DELAY_MS, minIntervalMs = ANALYZE_MIN_INTERVAL_MS) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let last = -Infinity;
  const refresh = async (only?: 'events') => {
    if (database.kind === 'pglite') {
      await database.db.execute(only ? sql`analyze events` : sql`analyze`);
      return;
    }
    const { rows } = (await database.db.execute(STALE_TABLES)) as unknown as { rows: { name: string; vacuum: boolean }[] };
    const due = rows.filter((r) => !only || r.name === only);
    const vacuum = due.filter((r) => r.vacuum).map((r) => quoteIdent(r.name));
    const analyze = due.filter((r) => !r.vacuum).map((r) => quoteIdent(r.name));
    // VACUUM takes no lock that stops reads or writes; it cannot run in a transaction, and the
    // pool runs each statement on its own.
    if (vacuum.length) await database.db.execute(sql.raw(`vacuum (analyze) ${vacuum.join(', ')}`));
    if (analyze.length) await database.db.execute(sql.raw(`analyze ${analyze.join(', ')}`));
  };
  const analyze = (only?: 'events') => {
    last = Date.now();
    running = running
      .then(() => refresh(only))
      .then(
        () => undefined,
        () => undefined,
      );
    return running;
  };
  return {
    /** Analyses now; resolves when done. */
    now: () => analyze(),
    /** Events changed: analyse once things settle. */
    changed() {
      if (timer) return;
      timer = setTimeout(
        () => {
          timer = null;
          void analyze('events');
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
