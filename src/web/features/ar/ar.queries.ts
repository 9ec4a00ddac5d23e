import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ArAchievementsResponse, DiscoverBody, DiscoverResponse, NearbyEventsBody, NearbyEventsResponse, ShareResponse } from '../../../contract/ar.ts';
import { apiJson } from '../../lib/api-client.ts';
import { AUTH_USER_KEY } from '../auth/auth.queries.ts';

export const AR_ACHIEVEMENTS_KEY = ['/api/ar/achievements'] as const;

/** GET /api/ar/achievements: AR Explorer, Reality Hunter, Digital Pioneer with progress. */
export function useArAchievements() {
  return useQuery<ArAchievementsResponse>({ queryKey: AR_ACHIEVEMENTS_KEY });
}

/** POST /api/ar/nearby-events (spec section 7): upcoming events around a point, nearest first. */
export function fetchNearbyEvents(body: NearbyEventsBody): Promise<NearbyEventsResponse> {
  return apiJson<NearbyEventsResponse>('POST', '/api/ar/nearby-events', body);
}

/** POST /api/ar/discover: records the session; the server checks the events and pays the AR points. */
export function useRecordDiscovery() {
  const client = useQueryClient();
  return useMutation<DiscoverResponse, Error, DiscoverBody>({
    mutationFn: (body) => apiJson<DiscoverResponse>('POST', '/api/ar/discover', body),
    onSuccess: (res) => {
      client.setQueryData<ArAchievementsResponse>(AR_ACHIEVEMENTS_KEY, { achievements: res.achievements });
      if (res.pointsAwarded > 0) for (const key of [AUTH_USER_KEY, ['/api/gaming/progress'], ['/api/user/stats'], ['/api/user/activities']]) void client.invalidateQueries({ queryKey: key });
    },
  });
}

/** POST /api/ar/discoveries/:id/share: counts towards Digital Pioneer. */
export function useShareDiscovery() {
  const client = useQueryClient();
  return useMutation<ShareResponse, Error, string>({
    mutationFn: (id) => apiJson<ShareResponse>('POST', `/api/ar/discoveries/${encodeURIComponent(id)}/share`),
    onSuccess: (res) => client.setQueryData<ArAchievementsResponse>(AR_ACHIEVEMENTS_KEY, { achievements: res.achievements }),
  });
}
