import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FlyerScanBody, FlyerScanResponse, ScanChallenge, ScanHistory } from '../../../contract/scan.ts';
import { apiJson, ApiError } from '../../lib/api-client.ts';
import { AUTH_USER_KEY, useAuth } from '../auth/auth.queries.ts';
import { isEventQueryKey } from '../events/events.queries.ts';

/** Query keys are the URL segments (spec section 7). */
export const SCAN_KEYS = {
  history: ['/api/scan/history'] as const,
  challenges: ['/api/scan/challenges'] as const,
};

/** Spec section 8: the failure toast and the no-event toast. */
export const SCAN_FAILED_TITLE = 'Scan Failed';
export const SCAN_FAILED_TEXT = 'Please try again with a different image';
export const NO_EVENT_TITLE = 'No Event Detected';
export const NO_EVENT_TEXT = 'Try scanning a clearer flyer or event poster';
export const SCAN_SUCCESS_TITLE = 'Scan Successful!';

/** A failed scan call, with the seconds to wait that a 503 or 429 names in Retry-After. */
export class ScanError extends ApiError {
  constructor(
    status: number,
    body: string,
    readonly retryAfter: number | null,
  ) {
    super(status, `${status}: ${body}`, body);
  }
}

function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  const n = Number(value);
  if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/** What a failed scan tells the user under 'Scan Failed': the server's reason where it helps. */
export function scanErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return SCAN_FAILED_TEXT;
  const wait = err instanceof ScanError && err.retryAfter !== null ? ` in ${err.retryAfter} s` : ' in a moment';
  if (err.status === 503) return `The flyer reader is busy. Please try again${wait}.`;
  if (err.status === 429) return `Too many scans. Please try again${wait}.`;
  if (err.status === 400 || err.status === 413) return err.serverMessage ?? SCAN_FAILED_TEXT;
  return SCAN_FAILED_TEXT;
}

/** Queries of the signed-in user run only when there is one. */
function useSignedIn() {
  return Boolean(useAuth().user);
}

/** GET /api/scan/history: the stat tiles. */
export function useScanHistory() {
  return useQuery<ScanHistory>({ queryKey: SCAN_KEYS.history, enabled: useSignedIn() });
}

/** GET /api/scan/challenges: the active challenges list. */
export function useScanChallenges() {
  return useQuery<ScanChallenge[]>({ queryKey: SCAN_KEYS.challenges, enabled: useSignedIn() });
}

/** After a scan or a correction: the tiles, challenges, the points chip, gaming views and event lists. */
export function refreshAfterScan(client: QueryClient) {
  for (const key of [SCAN_KEYS.history, SCAN_KEYS.challenges, AUTH_USER_KEY, ['/api/gaming/progress'], ['/api/gaming/leaderboard'], ['/api/user/stats'], ['/api/user/activities'], ['/api/user/badges']]) {
    void client.invalidateQueries({ queryKey: key });
  }
  void client.invalidateQueries({ predicate: (q) => isEventQueryKey(q.queryKey) });
}

/** POST /api/scan/flyer; a failure is a ScanError carrying Retry-After. */
export async function postFlyerScan(body: FlyerScanBody): Promise<FlyerScanResponse> {
  const res = await fetch('/api/scan/flyer', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'include',
  });
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new ScanError(res.status, text, retryAfterSeconds(res.headers.get('Retry-After')));
  }
  return (await res.json()) as FlyerScanResponse;
}

export function useFlyerScan() {
  const client = useQueryClient();
  return useMutation<FlyerScanResponse, Error, FlyerScanBody>({
    mutationFn: postFlyerScan,
    onSuccess: () => refreshAfterScan(client),
  });
}

export interface FlyerCorrectionInput {
  title?: string;
  startDate?: string;
  venue?: string;
  price?: number | null;
}

/** PATCH /api/scan/:id: corrects the event a scan contributed while it awaits review. */
export function useCorrectScan(scanId: string | undefined) {
  const client = useQueryClient();
  return useMutation<unknown, Error, FlyerCorrectionInput>({
    mutationFn: (body) => apiJson<unknown>('PATCH', `/api/scan/${encodeURIComponent(scanId ?? '')}`, body),
    onSuccess: () => void client.invalidateQueries({ predicate: (q) => isEventQueryKey(q.queryKey) }),
  });
}
