import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DuplicateListResponse, DuplicatePair, MergedRecord, MergeResponse, SplitResponse } from '../../../contract/duplicates.ts';
import type { EventPatch, EventStats, EventSummary, SavedEvent } from '../../../contract/events.ts';
import { runNoteReason, type RemoveHeldResponse, type RunNote, type RunSummaryResponse, type SourceCreate, type SourcePatch, type SourceResponse, type SourceRunResponse } from '../../../contract/ingestion.ts';
import type { z } from 'zod';
import { toast } from '../../components/ui/use-toast.ts';
import { apiJson, apiRequest, ApiError, throwIfResNotOk } from '../../lib/api-client.ts';
import { isEventQueryKey } from '../events/events.queries.ts';

/** Query keys are the URL's segments (spec section 7): the generic fetch joins them with '/'. */
export const STATS_KEY = ['/api/events/stats'] as const;
export const AI_STATUS_KEY = ['/api/admin/ai-status'] as const;
export const PENDING_KEY = ['/api/admin/events/pending'] as const;
export const OVERVIEW_KEY = ['/api/admin/overview'] as const;
export const SOURCES_KEY = ['/api/admin/sources'] as const;
export const FAVORITES_KEY = ['/api/user/favorites'] as const;
export const DUPLICATES_KEY = ['/api/admin/duplicates'] as const;
export const sourceRunsKey = (id: string) => ['/api/admin/sources', id, 'runs'] as const;

/** GET /api/admin/ai-status: the classifier's measured held-out figures. */
export interface AiStatus {
  model: string;
  /** 0..1 */
  accuracy: number;
  macroF1: number;
  evaluatedOn: string;
  /** The language model asked about low-confidence events (LLM_BASE_URL), or null. */
  llm?: { model: string } | null;
}

export type SourceRun = z.infer<typeof SourceRunResponse>;
export type SourceCreateInput = z.input<typeof SourceCreate>;
export type SourcePatchInput = z.input<typeof SourcePatch>;

/** GET /api/events/stats. */
export function useEventStatsQuery(enabled = true) {
  return useQuery<EventStats>({ queryKey: STATS_KEY, enabled });
}

/** GET /api/admin/ai-status; a 404 (no measurement on this server) reads as null. */
export function useAiStatus(enabled = true) {
  return useQuery<AiStatus | null>({
    queryKey: AI_STATUS_KEY,
    enabled,
    queryFn: async ({ signal }) => {
      const res = await fetch(AI_STATUS_KEY[0], { credentials: 'include', signal });
      if (res.status === 404) return null;
      await throwIfResNotOk(res);
      return (await res.json()) as AiStatus;
    },
  });
}

/**
 * GET /api/admin/events/pending. Contributions keep arriving, so opening the review table
 * always asks again rather than showing what an earlier visit cached.
 */
export function usePendingEvents(offset = 0, enabled = true) {
  return useQuery<PendingPage>({
    queryKey: [...PENDING_KEY, { offset }],
    enabled,
    refetchOnMount: 'always',
    queryFn: async () => {
      const res = await apiRequest('GET', `${PENDING_KEY[0]}?offset=${offset}`);
      const events = (await res.json()) as EventSummary[];
      return { events, total: Number(res.headers.get('x-total-count') ?? events.length), offset };
    },
  });
}

/** A page of the review queue: its events (newest first), from `offset`, of `total` waiting. */
export interface PendingPage {
  events: EventSummary[];
  total: number;
  offset: number;
}

/** Changes the pending events of every page held. */
function updatePending(client: QueryClient, change: (events: EventSummary[]) => EventSummary[]) {
  client.setQueriesData<PendingPage>({ queryKey: PENDING_KEY }, (page) => (page ? { ...page, events: change(page.events) } : page));
}

/** GET /api/user/favorites: the signed-in user's saved events, those the sources dropped marked. */
export function useFavoriteEvents(enabled = true) {
  return useQuery<SavedEvent[]>({ queryKey: FAVORITES_KEY, enabled });
}

/** GET /api/admin/sources. */
export function useSources(enabled = true) {
  return useQuery<SourceResponse[]>({ queryKey: SOURCES_KEY, enabled });
}

/** GET /api/admin/sources/:id/runs, newest first; asked again each time the history opens. */
export function useSourceRuns(id: string, enabled = true) {
  return useQuery<SourceRun[]>({ queryKey: sourceRunsKey(id), enabled, refetchOnMount: 'always' });
}

/** After a review action: the pending list, the possible duplicates, the stats and every event list or detail. */
function invalidateEventData(client: QueryClient) {
  void client.invalidateQueries({ queryKey: PENDING_KEY });
  void client.invalidateQueries({ queryKey: DUPLICATES_KEY });
  // The Admin page's Overview counts what waits for review, and stays mounted under the dashboard.
  void client.invalidateQueries({ queryKey: OVERVIEW_KEY });
  void client.invalidateQueries({ predicate: (q) => isEventQueryKey(q.queryKey) });
}

function dropPending(client: QueryClient, id: string) {
  updatePending(client, (events) => events.filter((e) => e.id !== id));
}

/** Spec section 8: the review toasts. */
export const REVIEW_TOASTS = {
  approve: { success: 'Event approved successfully', failure: 'Failed to approve event' },
  reject: { success: 'Event rejected successfully', failure: 'Failed to reject event' },
} as const;

/**
 * POST /api/admin/events/:id/approve or /reject; the row leaves the pending list. The toasts are
 * raised here, not by the row: the row unmounts as soon as it leaves the list.
 */
export function useReviewEvent(action: 'approve' | 'reject') {
  const client = useQueryClient();
  return useMutation<EventSummary, Error, string>({
    mutationFn: (id) => apiJson<EventSummary>('POST', `/api/admin/events/${encodeURIComponent(id)}/${action}`),
    onSuccess: (_res, id) => {
      toast({ title: 'Success', description: REVIEW_TOASTS[action].success });
      dropPending(client, id);
      invalidateEventData(client);
    },
    onError: () => toast({ title: 'Error', description: REVIEW_TOASTS[action].failure, variant: 'destructive' }),
  });
}

/** PATCH /api/admin/events/:id with only the changed fields. */
export function useEditEvent() {
  const client = useQueryClient();
  return useMutation<EventSummary, Error, { id: string; patch: EventPatch }>({
    mutationFn: ({ id, patch }) => apiJson<EventSummary>('PATCH', `/api/admin/events/${encodeURIComponent(id)}`, patch),
    onSuccess: (updated) => {
      updatePending(client, (events) => events.map((e) => (e.id === updated.id ? updated : e)));
      invalidateEventData(client);
    },
  });
}

/** Source changes move the list, its health and the active-source count. */
function invalidateSources(client: QueryClient) {
  void client.invalidateQueries({ queryKey: SOURCES_KEY });
  void client.invalidateQueries({ queryKey: STATS_KEY });
}

/** POST /api/admin/sources. */
export function useCreateSource() {
  const client = useQueryClient();
  return useMutation<SourceResponse, Error, SourceCreateInput>({
    mutationFn: (body) => apiJson<SourceResponse>('POST', SOURCES_KEY[0], body),
    onSuccess: () => invalidateSources(client),
  });
}

/** PATCH /api/admin/sources/:id. */
export function useUpdateSource() {
  const client = useQueryClient();
  return useMutation<SourceResponse, Error, { id: string; patch: SourcePatchInput }>({
    mutationFn: ({ id, patch }) => apiJson<SourceResponse>('PATCH', `${SOURCES_KEY[0]}/${encodeURIComponent(id)}`, patch),
    onSuccess: (updated) => {
      client.setQueryData<SourceResponse[]>(SOURCES_KEY, (list) => list?.map((s) => (s.id === updated.id ? updated : s)));
      invalidateSources(client);
    },
  });
}

/** DELETE /api/admin/sources/:id (204); toasts here, since the source's row unmounts on success. */
export function useDeleteSource() {
  const client = useQueryClient();
  return useMutation<void, Error, Pick<SourceResponse, 'id' | 'name'>>({
    mutationFn: async ({ id }) => {
      await apiRequest('DELETE', `${SOURCES_KEY[0]}/${encodeURIComponent(id)}`);
    },
    onSuccess: (_res, { id, name }) => {
      toast({ title: 'Source deleted', description: name });
      client.setQueryData<SourceResponse[]>(SOURCES_KEY, (list) => list?.filter((s) => s.id !== id));
      client.removeQueries({ queryKey: sourceRunsKey(id) });
      invalidateSources(client);
    },
    onError: (err) => toast({ title: 'Error', description: errorText(err), variant: 'destructive' }),
  });
}

/** The server's message for a failed call, else the client's '{status}: {text}'. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage ?? err.message;
  return err instanceof Error ? err.message : String(err);
}

/** POST /api/admin/sources/:id/run: one run now; its summary comes back. */
export function useRunSource() {
  const client = useQueryClient();
  return useMutation<RunSummaryResponse, Error, string>({
    mutationFn: (id) => apiJson<RunSummaryResponse>('POST', `${SOURCES_KEY[0]}/${encodeURIComponent(id)}/run`),
    onSettled: () => {
      // Health, history, counts and whatever events the run brought in.
      invalidateSources(client);
      invalidateEventData(client);
    },
  });
}

/**
 * POST /api/admin/sources/:id/remove-held: the admin confirms a held sudden drop, and its events
 * are marked removed by the source now; the card, its History and the lists follow.
 */
export function useRemoveHeld() {
  const client = useQueryClient();
  return useMutation<RemoveHeldResponse, Error, Pick<SourceResponse, 'id' | 'name'>>({
    mutationFn: ({ id }) => apiJson<RemoveHeldResponse>('POST', `${SOURCES_KEY[0]}/${encodeURIComponent(id)}/remove-held`),
    onSuccess: ({ removed }, { name }) => toast({ title: `${removed.toLocaleString('en-US')} ${removed === 1 ? 'event' : 'events'} removed`, description: name }),
    onError: (err) => toast({ title: 'Error', description: errorText(err), variant: 'destructive' }),
    onSettled: () => {
      invalidateSources(client);
      invalidateEventData(client);
    },
  });
}

/** 'fetched N, created N, updated N, merged N, rejected N' for a run summary, and ', skipped N' when parsing left entries out. */
export function runSummaryText(r: Pick<RunSummaryResponse, 'fetched' | 'created' | 'updated' | 'merged' | 'rejected' | 'skipped'>): string {
  const counts = `fetched ${r.fetched}, created ${r.created}, updated ${r.updated}, merged ${r.merged}, rejected ${r.rejected}`;
  return r.skipped > 0 ? `${counts}, skipped ${r.skipped}` : counts;
}

/** One note of a run as a sentence: '2 entries had no title (e.g. “row 4”, “row 9”)'. */
export function runNoteText(n: RunNote): string {
  const examples = n.examples.length ? ` (e.g. ${n.examples.map((e) => `“${e}”`).join(', ')})` : '';
  return `${n.count} ${n.count === 1 ? 'entry' : 'entries'} ${runNoteReason(n)}${examples}`;
}

/**
 * Field errors of a 400 answer (`issues: [{ path: 'body.name', message }]`), keyed by the first
 * segment after `body` ('name', 'config' ...); `form` holds a message that fits no field.
 */
export function serverFieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return { form: err instanceof Error ? err.message : String(err) };
  const out: Record<string, string> = {};
  try {
    const parsed = JSON.parse(err.body) as { message?: unknown; issues?: { path?: unknown; message?: unknown }[] };
    for (const issue of parsed.issues ?? []) {
      if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
      const segments = issue.path.split('.');
      const key = (segments[0] === 'body' ? segments[1] : segments[0]) || 'form';
      if (!out[key]) out[key] = issue.message;
    }
    if (Object.keys(out).length === 0) out.form = typeof parsed.message === 'string' ? parsed.message : err.message;
  } catch {
    out.form = err.message;
  }
  return out;
}

/* ------------------------------------------------------------------ possible duplicates */

export type MergeResult = z.infer<typeof MergeResponse>;
export type SplitResult = z.infer<typeof SplitResponse>;

/**
 * GET /api/admin/duplicates: open pairs, the learned merge threshold and the decision counts.
 * Every source run may propose more, so opening the section always asks again.
 */
export function useDuplicates(enabled = true) {
  return useQuery<DuplicateListResponse>({ queryKey: DUPLICATES_KEY, enabled, refetchOnMount: 'always' });
}

function dropPair(client: QueryClient, id: string) {
  client.setQueryData<DuplicateListResponse>(DUPLICATES_KEY, (list) => (list ? { ...list, pairs: list.pairs.filter((p) => p.id !== id) } : list));
}

const pairUrl = (id: string, action: 'merge' | 'keep-apart') => `${DUPLICATES_KEY[0]}/${encodeURIComponent(id)}/${action}`;

/**
 * POST /api/admin/duplicates/:id/merge: `keepId` stays listed, the other becomes one of its
 * records. Toasts here: the pair's card unmounts as soon as it leaves the list.
 */
export function useMergeDuplicate() {
  const client = useQueryClient();
  return useMutation<MergeResult, Error, { pair: DuplicatePair; keepId: string }>({
    mutationFn: ({ pair, keepId }) => apiJson<MergeResult>('POST', pairUrl(pair.id, 'merge'), { keepId }),
    onSuccess: (res, { pair }) => {
      const kept = res.eventId === pair.b.id ? pair.b : pair.a;
      toast({ title: 'Events merged', description: `“${kept.title}” stays listed; the other listing is now one of its sources.` });
      dropPair(client, pair.id);
    },
    onError: (err) => toast({ title: 'Could not merge', description: errorText(err), variant: 'destructive' }),
    // A 409 (decided elsewhere meanwhile) also changes the list.
    onSettled: () => invalidateEventData(client),
  });
}

/** POST /api/admin/duplicates/:id/keep-apart: both stay listed, and the decision is remembered. */
export function useKeepApart() {
  const client = useQueryClient();
  return useMutation<unknown, Error, DuplicatePair>({
    mutationFn: (pair) => apiJson<unknown>('POST', pairUrl(pair.id, 'keep-apart')),
    onSuccess: (_res, pair) => {
      toast({ title: 'Kept apart', description: 'Both events stay listed; the decision is remembered.' });
      dropPair(client, pair.id);
    },
    onError: (err) => toast({ title: 'Could not keep apart', description: errorText(err), variant: 'destructive' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: DUPLICATES_KEY });
      void client.invalidateQueries({ queryKey: OVERVIEW_KEY });
    },
  });
}

/** POST /api/admin/events/:id/split: every record merged into the event is listed on its own again. */
/** GET /api/admin/events/:id/records: the records merged into an event, read while an admin looks at them. */
export function useMergedRecords(eventId: string, enabled: boolean) {
  // Read afresh each time it is shown: runs, merges and hand-overs change it without a word to this key.
  return useQuery<MergedRecord[]>({ queryKey: [`/api/admin/events/${encodeURIComponent(eventId)}/records`], enabled, staleTime: 0 });
}

/** Splits an event: every record, or with `recordId` that record alone. */
export function useSplitEvent() {
  const client = useQueryClient();
  return useMutation<SplitResult, Error, string | { id: string; recordId: string }>({
    mutationFn: (v) => {
      const { id, recordId } = typeof v === 'string' ? { id: v, recordId: undefined } : v;
      return apiJson<SplitResult>('POST', `/api/admin/events/${encodeURIComponent(id)}/split`, recordId ? { recordId } : undefined);
    },
    onSuccess: (res) => {
      const n = res.restored.length;
      toast({ title: 'Event split into sources', description: n === 1 ? '1 listing is on its own again.' : `${n} listings are on their own again.` });
      invalidateEventData(client);
    },
    onError: (err) => toast({ title: 'Could not split the event', description: errorText(err), variant: 'destructive' }),
  });
}
