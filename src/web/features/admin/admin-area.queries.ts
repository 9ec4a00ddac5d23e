import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SYSTEM_STATUS_POLL_MS,
  type AdminOverviewResponse,
  type AdminUser,
  type AdminUserPatch,
  type AdminUsersResponse,
  type AiStatusResponse,
  type AnalyticsResponse,
  type AuditResponse,
  type BackupsResponse,
  type SecurityReport,
  type StoredBackup,
  type SystemStatus,
  type UserActivitiesResponse,
} from '../../../contract/admin.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { apiJson } from '../../lib/api-client.ts';
import { errorText, OVERVIEW_KEY } from './admin.queries.ts';

export const SYSTEM_STATUS_KEY = ['/api/admin/system-status'] as const;
export const SECURITY_KEY = ['/api/deployment/security'] as const;
export const AUDIT_KEY = ['/api/admin/audit?limit=10'] as const;
export const AI_STATUS_FULL_KEY = ['/api/admin/ai-status'] as const;
export const USERS_KEY = ['/api/admin/users'] as const;
export const BACKUPS_KEY = ['/api/admin/backups'] as const;

/** GET /api/admin/system-status, asked every 5 s (spec section 9). */
export function useSystemStatus() {
  return useQuery<SystemStatus>({ queryKey: SYSTEM_STATUS_KEY, refetchInterval: SYSTEM_STATUS_POLL_MS });
}

/** GET /api/admin/overview: approved events, users active in the last 7 days, and the events and possible duplicates waiting for a decision (asked again after each decision). */
export function useOverview() {
  return useQuery<AdminOverviewResponse>({ queryKey: OVERVIEW_KEY, refetchOnMount: 'always' });
}

/** GET /api/deployment/security: checked again each time the page opens. */
export function useSecurityReport() {
  return useQuery<SecurityReport>({ queryKey: SECURITY_KEY, refetchOnMount: 'always' });
}

/** GET /api/admin/audit: the latest admin actions. */
export function useAuditLog() {
  return useQuery<AuditResponse>({ queryKey: AUDIT_KEY, refetchOnMount: 'always' });
}

/** GET /api/admin/ai-status with each feature's engine and latency. */
export function useAiEngines() {
  return useQuery<AiStatusResponse>({ queryKey: AI_STATUS_FULL_KEY, refetchOnMount: 'always' });
}

/** GET /api/admin/analytics?days=N. */
export function useAnalytics(days: number) {
  return useQuery<AnalyticsResponse>({ queryKey: [`/api/admin/analytics?days=${days}`], placeholderData: keepPreviousData });
}

/** GET /api/admin/users with search and paging; the previous page stays shown while the next loads. */
export function useAdminUsers(q: { search: string; limit: number; offset: number }) {
  const params = new URLSearchParams({ search: q.search, limit: String(q.limit), offset: String(q.offset) });
  return useQuery<AdminUsersResponse>({ queryKey: [`${USERS_KEY[0]}?${params}`], placeholderData: keepPreviousData, refetchOnMount: 'always' });
}

/** GET /api/admin/user-activities: the latest ledger entries across users. */
export function useUserActivities(limit = 10) {
  return useQuery<UserActivitiesResponse>({ queryKey: [`/api/admin/user-activities?limit=${limit}`], refetchOnMount: 'always' });
}

/** PATCH /api/admin/users/:id; toasts either way, and the table, overview and audit log are asked again. */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation<AdminUser, Error, { user: AdminUser; patch: AdminUserPatch }>({
    mutationFn: ({ user, patch }) => apiJson<AdminUser>('PATCH', `${USERS_KEY[0]}/${encodeURIComponent(user.id)}`, patch),
    onSuccess: (updated, { patch }) => {
      const who = updated.email;
      const description =
        patch.disabled === true ? `${who} is disabled and signed out everywhere.` : patch.disabled === false ? `${who} can sign in again.` : `${who} is now ${updated.role}.`;
      toast({ title: 'User updated', description });
    },
    onError: (err) => toast({ title: 'Could not update the user', description: errorText(err), variant: 'destructive' }),
    onSettled: () => {
      void client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(USERS_KEY[0]) });
      void client.invalidateQueries({ queryKey: AUDIT_KEY });
      void client.invalidateQueries({ queryKey: SECURITY_KEY });
    },
  });
}

/** GET /api/admin/backups: the schedule and the backups the server keeps. */
export function useBackups() {
  return useQuery<BackupsResponse>({ queryKey: BACKUPS_KEY, refetchOnMount: 'always' });
}

/** POST /api/admin/backups: a backup into the backup directory now; the list and audit log are asked again. */
export function useTakeBackup() {
  const client = useQueryClient();
  return useMutation<StoredBackup, Error>({
    mutationFn: () => apiJson<StoredBackup>('POST', BACKUPS_KEY[0]),
    onSuccess: (b) => toast({ title: 'Backup written', description: `${b.name} is kept with the scheduled ones.` }),
    onError: (err) => toast({ title: 'Could not write a backup', description: errorText(err), variant: 'destructive' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: BACKUPS_KEY });
      void client.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}
