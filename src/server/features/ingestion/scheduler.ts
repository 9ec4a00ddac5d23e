import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from '../../db/client.ts';
import type { IngestionService } from './ingestion.service.ts';
import type { SourcesRepository } from './sources.repository.ts';

const QUEUE = 'source-run';
/** Back-off after failures: the interval doubles per consecutive failure, up to an hour. */
export function nextDelayMinutes(intervalMinutes: number, consecutiveFailures: number): number {
  if (consecutiveFailures <= 0) return intervalMinutes;
  return Math.min(60, intervalMinutes * 2 ** Math.min(consecutiveFailures, 6));
}

export interface Scheduler {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Makes sure the source has a queued run, after the given delay (ignored when one is queued). */
  ensure(sourceId: string, delayMinutes: number): Promise<void>;
  /** 'idle' before start(), 'running' after it, 'stopped' once stopped (or the queue stopped by itself). */
  state(): 'idle' | 'running' | 'stopped';
}

/**
 * Runs every enabled source on its interval through pg-boss, on PostgreSQL or the embedded
 * database alike. The queue's `stately` policy with the source id as singleton key allows one
 * queued and one active run per source across all instances, so each run happens once.
 */
export function createScheduler(deps: {
  database: Database;
  sources: SourcesRepository;
  ingestion: IngestionService;
  /** Length of one "minute" in seconds (tests shorten it). */
  unitSeconds?: number;
  pollingIntervalSeconds?: number;
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
}): Scheduler {
  const unit = deps.unitSeconds ?? 60;
  const boss =
    deps.database.kind === 'pglite'
      ? new PgBoss({ backend: 'pglite', db: fromPglite(deps.database.pglite!), schedule: false })
      : new PgBoss({ connectionString: deps.database.url!, max: 3, schedule: false });
  boss.on('error', (err: Error) => deps.log.error({ err }, 'job queue error'));
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  // The health report reads this: a queue that stopped by itself means no source runs any more.
  boss.on('stopped', () => {
    state = 'stopped';
  });

  async function ensure(sourceId: string, delayMinutes: number) {
    await boss.send(QUEUE, { sourceId }, { singletonKey: sourceId, startAfter: Math.max(0, Math.round(delayMinutes * unit)), retryLimit: 0 });
  }

  return {
    ensure,
    state: () => state,
    async start() {
      await boss.start();
      state = 'running';
      await boss.createQueue(QUEUE, { policy: 'stately' });
      await boss.work<{ sourceId: string }>(QUEUE, { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2, batchSize: 1 }, async ([job]) => {
        if (!job) return;
        const source = await deps.sources.findById(job.data.sourceId);
        if (!source?.enabled) return;
        // Run by hand since this run was queued (Run now, just after adding the source): the
        // schedule goes on from that run instead of reading the feed again at once.
        const delay = nextDelayMinutes(source.intervalMinutes, source.consecutiveFailures);
        const sinceLast = source.lastRunAt ? (Date.now() - source.lastRunAt.getTime()) / 1000 / unit : Infinity;
        if (sinceLast < delay / 2) return ensure(source.id, delay - sinceLast);
        const summary = await deps.ingestion.runSource(source.id, 'schedule');
        deps.log.info({ source: source.name, ...summary }, 'source run');
        const failures = summary.status === 'error' ? source.consecutiveFailures + 1 : 0;
        await ensure(source.id, nextDelayMinutes(source.intervalMinutes, failures));
      });
      // Each enabled source gets its next run: due now, or the rest of its interval after the last run.
      const now = Date.now();
      for (const s of await deps.sources.list()) {
        if (!s.enabled) continue;
        const sinceLast = s.lastRunAt ? (now - s.lastRunAt.getTime()) / 1000 / unit : Infinity;
        await ensure(s.id, Math.max(0, nextDelayMinutes(s.intervalMinutes, s.consecutiveFailures) - sinceLast));
      }
    },
    async stop() {
      state = 'stopped';
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

/**
 * What a worker that does not run the queue (one of a cluster's others, RUN_SCHEDULER=false) uses
 * to queue a source's next run: it sends to the same pg-boss queue on PostgreSQL and works
 * nothing, so a source added or re-enabled through any worker is run by the scheduling one.
 * Connects on first use.
 */
export function createSchedulerClient(deps: { url: string; unitSeconds?: number; log: { error: (o: object, m: string) => void } }): Pick<Scheduler, 'ensure' | 'stop'> {
  const unit = deps.unitSeconds ?? 60;
  let started: Promise<PgBoss> | null = null;
  const boss = () => {
    if (!started) {
      const b = new PgBoss({ connectionString: deps.url, max: 1, schedule: false, supervise: false, migrate: false });
      b.on('error', (err: Error) => deps.log.error({ err }, 'job queue error'));
      started = b.start().then(() => b);
      started.catch(() => {
        started = null;
      });
    }
    return started;
  };
  return {
    // A failure is logged, not thrown: the source is saved, and the scheduler queues every enabled
    // source when it starts.
    async ensure(sourceId, delayMinutes) {
      try {
        await (await boss()).send(QUEUE, { sourceId }, { singletonKey: sourceId, startAfter: Math.max(0, Math.round(delayMinutes * unit)), retryLimit: 0 });
      } catch (err) {
        deps.log.error({ err, sourceId }, 'could not queue the source on the scheduling instance');
      }
    },
    async stop() {
      if (started) await (await started).stop({ graceful: true, timeout: 10_000 });
    },
  };
}
