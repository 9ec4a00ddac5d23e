import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BuzzResponse, EventViewBody, InterestsBody, InterestsResponse, RecommendedEvent } from '../../../contract/recommendations.ts';
import { apiJson } from '../../lib/api-client.ts';

export const RECOMMENDED_KEY = ['/api/events/recommended'] as const;
export const INTERESTS_KEY = ['/api/user/interests'] as const;
export const BUZZ_KEY = ['/api/community/buzz'] as const;

/** POST /api/events/:id/dismiss: 'Not interested'; the strip drops the card when the ranking answers again. */
export function useDismissRecommendation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) => apiJson<{ dismissed: true }>('POST', `/api/events/${encodeURIComponent(eventId)}/dismiss`, {}),
    onSuccess: (_d, eventId) => {
      client.setQueryData<RecommendedEvent[] | null>(RECOMMENDED_KEY, (list) => list?.filter((e) => e.id !== eventId) ?? list);
    },
  });
}

/** POST /api/events/:id/view: fire and forget, so a signal never holds up navigation. */
export function recordView(eventId: string, via: EventViewBody['via']): void {
  void apiJson<{ recorded: boolean }>('POST', `/api/events/${encodeURIComponent(eventId)}/view`, { via }).catch(() => undefined);
}

/** GET /api/user/interests: `chosen` false until the step after sign-up was done or skipped. */
export function useInterests(enabled = true) {
  return useQuery<InterestsResponse>({ queryKey: INTERESTS_KEY, enabled });
}

/** PUT /api/user/interests (empty lists = skip). */
export function useSaveInterests() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InterestsBody) => apiJson<InterestsResponse>('PUT', '/api/user/interests', body),
    onSuccess: (saved) => {
      client.setQueryData(INTERESTS_KEY, saved);
      void client.invalidateQueries({ queryKey: RECOMMENDED_KEY });
    },
  });
}

/** GET /api/community/buzz?limit=3; refetched on the realtime 'buzz' nudge. */
export function useCommunityBuzz(limit: number) {
  return useQuery<BuzzResponse>({ queryKey: [...BUZZ_KEY, limit], queryFn: () => apiJson<BuzzResponse>('GET', `/api/community/buzz?limit=${limit}`) });
}
