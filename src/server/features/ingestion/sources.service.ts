import { isDeepStrictEqual } from 'node:util';
import type { SourceCreate, SourcePatch } from '../../../contract/ingestion.ts';
import { invalid, notFound } from '../../errors.ts';
import { CONNECTORS } from './connectors/index.ts';
import type { IngestionService } from './ingestion.service.ts';
import type { Scheduler } from './scheduler.ts';
import { mergeConfig } from './sources.mapper.ts';
import type { SourcesRepository } from './sources.repository.ts';

/** How many runs the run history shows, newest first. */
const RUN_HISTORY = 50;

/** Refuses (400, naming the field) a source its connector could never run: no URL, a setting it needs, an option it does not know. */
function assertRunnable(connector: string, source: { url: string | null; config: Record<string, unknown> }) {
  // Sources are added with a known connector (the contract) and cannot change it.
  const issue = CONNECTORS[connector as keyof typeof CONNECTORS]?.check(source);
  if (issue) throw invalid(issue.message, [{ path: `body.${issue.path}`, message: issue.message }]);
}

export interface SourcesServiceDeps {
  sources: SourcesRepository;
  ingestion: IngestionService;
  /** Null when sources are not run on their intervals (tests, benchmarks). */
  /** The queue: the scheduler, or on an instance that does not run it, a client that sends to it. */
  scheduler: Pick<Scheduler, 'ensure'> | null;
}

/** The admin's sources: add, edit, delete, run now, remove a held drop and the run history, keeping the schedule in step. */
export function createSourcesService(deps: SourcesServiceDeps) {
  const { sources, ingestion, scheduler } = deps;

  const find = async (id: string) => {
    const source = await sources.findById(id);
    if (!source) throw notFound('Source not found');
    return source;
  };

  return {
    /** Every source, by name. */
    list: () => sources.list(),

    /** Adds a source its connector can run, and queues its first run at once. */
    async create(input: SourceCreate) {
      assertRunnable(input.connector, { url: input.url ?? null, config: input.config });
      const row = await sources.insert({ ...input, url: input.url ?? null });
      await scheduler?.ensure(row.id, 0);
      return row;
    },

    /**
     * Edits a source, refusing a URL or config its connector cannot run with; masked secrets sent
     * back keep their stored values; an enabled source stays scheduled. A new URL or config
     * changes how the source is read: its next run fetches it whole (no validators, so no 'not
     * modified') and applies every item again (no hashes of how they were read before), rather
     * than wait for the feed itself to change.
     */
    async update(id: string, patch: SourcePatch) {
      const current = await find(id);
      const { config, ...rest } = patch;
      const merged = config ? mergeConfig(current.config, config) : current.config;
      // Checked as it will be, secrets unmasked, when the patch changes how it is read; a patch of
      // its name, interval or flags alone leaves that as it was (a source saved before these checks too).
      if (patch.url !== undefined || config) assertRunnable(current.connector, { url: patch.url !== undefined ? patch.url : current.url, config: merged });
      const rereads = (patch.url !== undefined && patch.url !== current.url) || !isDeepStrictEqual(merged, current.config);
      const row = await sources.update(current.id, { ...rest, ...(config ? { config: merged } : {}), ...(rereads ? { etag: null, lastModified: null } : {}) });
      if (!row) throw notFound('Source not found');
      if (rereads) await sources.forgetItemHashes(row.id);
      if (row.enabled) await scheduler?.ensure(row.id, row.intervalMinutes);
      return row;
    },

    /** Deletes a source with its runs. */
    async remove(id: string) {
      if (!(await sources.remove(id))) throw notFound('Source not found');
    },

    /** Runs a source now, outside its schedule. */
    async runNow(id: string) {
      await find(id);
      return ingestion.runSource(id, 'manual');
    },

    /** Removes now the listed events the source's last run held after a sudden drop (ingestion's removeHeld). */
    removeHeld: (id: string) => ingestion.removeHeld(id),

    /** A source's latest runs, newest first. */
    async runs(id: string) {
      await find(id);
      return sources.listRuns(id, RUN_HISTORY);
    },
  };
}

export type SourcesService = ReturnType<typeof createSourcesService>;
