import type { SourceResponse, SourceRunResponse } from '../../../contract/ingestion.ts';
import type { SourceRow } from './sources.repository.ts';
import type { sourceRuns } from './sources.table.ts';

export type SourceRunRow = typeof sourceRuns.$inferSelect;

export const MASK = '••••••';
const SECRET = /token|key|secret|password/i;

/**
 * Config as admins see it: credentials masked, and an uploaded CSV's rows too (they can be
 * megabytes; the mask sent back keeps them), the rest as stored.
 */
export function maskConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, (SECRET.test(k) || k === 'csv') && typeof v === 'string' && v ? MASK : v]));
}

/** A masked value sent back unchanged keeps the stored secret. */
export function mergeConfig(stored: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(incoming).map(([k, v]) => [k, v === MASK ? stored[k] : v]));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSourceResponse(s: SourceRow): SourceResponse {
  return {
    id: s.id,
    name: s.name,
    connector: s.connector,
    url: s.url,
    sourceType: s.sourceType,
    trusted: s.trusted,
    intervalMinutes: s.intervalMinutes,
    enabled: s.enabled,
    isDemo: s.isDemo,
    config: maskConfig(s.config),
    health: {
      lastRunAt: iso(s.lastRunAt),
      lastSuccessAt: iso(s.lastSuccessAt),
      lastError: s.lastError,
      consecutiveFailures: s.consecutiveFailures,
      eventsSeen: s.eventsSeen,
      lastRunSkipped: s.lastRunSkipped,
      lastRunHeld: s.lastRunHeld,
      lastRunHeldReason: s.lastRunHeldReason,
      etag: s.etag,
      lastModified: s.lastModified,
    },
  };
}

/** One run of a source as the admin's run history shows it. */
export function toSourceRunResponse(run: SourceRunRow): SourceRunResponse {
  return {
    id: run.id,
    trigger: run.trigger,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    status: run.status,
    fetched: run.fetched,
    created: run.created,
    updated: run.updated,
    merged: run.merged,
    rejected: run.rejected,
    skipped: run.skipped,
    errors: run.errors,
    ...(run.errorMessage ? { error: run.errorMessage } : {}),
    notes: run.notes,
  };
}
