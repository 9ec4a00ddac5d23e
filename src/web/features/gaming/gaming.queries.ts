import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ActivityResponse,
  AwardPointsBody,
  AwardResult,
  BadgeResponse,
  GamingProgress,
  LeaderboardEntry,
  ProfileSettings,
  ProfileSettingsPatch,
  QrDemoResponse,
  QrScanResult,
  UserStats,
} from '../../../contract/gaming.ts';
import type { NotificationListResponse, UnreadResponse } from '../../../contract/notifications.ts';
import { apiJson, ApiError, throwIfResNotOk } from '../../lib/api-client.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { applyNewTotal } from '../../lib/realtime-client.ts';
import { notify } from './notification-store.ts';

/** Spec section 9: gaming progress is polled every 30 s, the leaderboard every 60 s. */
export const PROGRESS_POLL_MS = 30_000;
export const LEADERBOARD_POLL_MS = 60_000;

/**
 * Query keys are the URL segments, so the realtime channel's invalidations (gaming_update,
 * notification) reach exactly these queries.
 */
export const GAMING_KEYS = {
  progress: ['/api/gaming/progress'] as const,
  leaderboard: (period: LeaderboardPeriod) => ['/api/gaming/leaderboard', period] as const,
  stats: ['/api/user/stats'] as const,
  badges: ['/api/user/badges'] as const,
  activities: ['/api/user/activities'] as const,
  profile: ['/api/user/profile'] as const,
  notifications: ['/api/notifications'] as const,
};

export type LeaderboardPeriod = 'all' | 'week';

/** Queries of the signed-in user run only when there is one (spec section 6). */
function useSignedIn(enabled: boolean | undefined) {
  const { user } = useAuth();
  return Boolean(user) && enabled !== false;
}

interface Opts {
  enabled?: boolean;
}

export function useProgress(opts: Opts = {}) {
  return useQuery<GamingProgress>({ queryKey: GAMING_KEYS.progress, refetchInterval: PROGRESS_POLL_MS, enabled: useSignedIn(opts.enabled) });
}

export function useLeaderboard(period: LeaderboardPeriod, opts: Opts = {}) {
  return useQuery<LeaderboardEntry[]>({
    queryKey: GAMING_KEYS.leaderboard(period),
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/gaming/leaderboard?period=${period}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as LeaderboardEntry[];
    },
    refetchInterval: LEADERBOARD_POLL_MS,
    enabled: useSignedIn(opts.enabled),
  });
}

export function useUserStats(opts: Opts = {}) {
  return useQuery<UserStats>({ queryKey: GAMING_KEYS.stats, enabled: useSignedIn(opts.enabled) });
}

export function useUserBadges(opts: Opts = {}) {
  return useQuery<BadgeResponse[]>({ queryKey: GAMING_KEYS.badges, enabled: useSignedIn(opts.enabled) });
}

export function useActivities(opts: Opts = {}) {
  return useQuery<ActivityResponse[]>({ queryKey: GAMING_KEYS.activities, enabled: useSignedIn(opts.enabled) });
}

export function useProfileSettings(opts: Opts = {}) {
  return useQuery<ProfileSettings>({ queryKey: GAMING_KEYS.profile, enabled: useSignedIn(opts.enabled) });
}

/** PATCH /api/user/profile: hiding from (or showing on) the leaderboard or Community Buzz. */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation<ProfileSettings, Error, ProfileSettingsPatch>({
    mutationFn: (body) => apiJson<ProfileSettings>('PATCH', '/api/user/profile', body),
    onSuccess: (settings) => {
      client.setQueryData(GAMING_KEYS.profile, settings);
      void client.invalidateQueries({ queryKey: ['/api/gaming/leaderboard'] });
    },
  });
}

/** The bell: the newest 50 persisted notifications and the unread count. */
export function useNotifications(opts: Opts = {}) {
  return useQuery<NotificationListResponse>({ queryKey: GAMING_KEYS.notifications, enabled: useSignedIn(opts.enabled) });
}

/** Marks the listed notifications read, or all of them without ids; the list updates at once. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation<UnreadResponse, Error, { ids?: string[] } | undefined, { previous: NotificationListResponse | undefined }>({
    mutationFn: (vars) => apiJson<UnreadResponse>('POST', '/api/notifications/read', vars?.ids ? { ids: vars.ids } : {}),
    onMutate: async (vars) => {
      await client.cancelQueries({ queryKey: GAMING_KEYS.notifications });
      const previous = client.getQueryData<NotificationListResponse>(GAMING_KEYS.notifications);
      if (previous) {
        const ids = vars?.ids ? new Set(vars.ids) : null;
        const items = previous.items.map((n) => (!ids || ids.has(n.id) ? { ...n, read: true } : n));
        client.setQueryData<NotificationListResponse>(GAMING_KEYS.notifications, { items, unread: items.filter((n) => !n.read).length });
      }
      return { previous };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.previous) client.setQueryData(GAMING_KEYS.notifications, ctx.previous);
    },
    onSuccess: (res) => {
      client.setQueryData<NotificationListResponse>(GAMING_KEYS.notifications, (prev) => (prev ? { ...prev, unread: res.unread } : prev));
    },
  });
}

export const AWARD_ERROR_TITLE = 'Points Error';
export const AWARD_ERROR_FALLBACK = 'Failed to award points. Please try again.';

/**
 * POST /api/gaming/award-points (the server checks the points against its rule table). A failure
 * is logged as 'Failed to award points' and shown as a 'Points Error' notification (spec section 8).
 */
export function useAwardPoints() {
  const client = useQueryClient();
  return useMutation<AwardResult, Error, AwardPointsBody>({
    mutationFn: (body) => apiJson<AwardResult>('POST', '/api/gaming/award-points', body),
    onSuccess: (res) => applyNewTotal(client, res.progress.points),
    onError: (err) => {
      console.error('Failed to award points', err);
      const message = err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.serverMessage : undefined;
      notify({ type: 'error', title: AWARD_ERROR_TITLE, message: message ?? AWARD_ERROR_FALLBACK });
    },
  });
}

export const QR_SCAN_FAILED = 'Failed to process QR scan';

/** What a failed scan tells the user: the server's reason for a refused code, else the spec's text. */
export function qrScanErrorMessage(err: unknown): string {
  if (err instanceof ApiError && [400, 403, 404, 409, 429].includes(err.status)) return err.serverMessage ?? QR_SCAN_FAILED;
  return QR_SCAN_FAILED;
}

/** POST /api/gaming/qr-scan { qrData }: verifies the code and pays its points once. */
export function useQrScan() {
  const client = useQueryClient();
  return useMutation<QrScanResult, Error, string>({
    mutationFn: (qrData) => apiJson<QrScanResult>('POST', '/api/gaming/qr-scan', { qrData }),
    onSuccess: (res) => applyNewTotal(client, res.totalPoints),
  });
}

/** GET /api/gaming/qr-demo: a fresh personal demo code each time the demo runs. */
export function useQrDemo() {
  return useMutation<QrDemoResponse, Error, void>({
    mutationFn: () => apiJson<QrDemoResponse>('GET', '/api/gaming/qr-demo'),
  });
}
