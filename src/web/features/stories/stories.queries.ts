import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LikeResponse, ReportResponse, ReviewResponse, StoriesResponse, Story, StoryBody, StoryCategory, StoryCreated, ViewResponse } from '../../../contract/stories.ts';
import { apiJson, throwIfResNotOk } from '../../lib/api-client.ts';
import { AUTH_USER_KEY } from '../auth/auth.queries.ts';

export type StoryFilter = StoryCategory | 'all';

/** Query keys start with the URL (spec section 7); the filter is the second part. */
export const STORIES_KEY = ['/api/stories'] as const;
export const storiesKey = (category: StoryFilter) => ['/api/stories', category] as const;

/** GET /api/stories?category=: the list, the featured ones and the counts. */
export function useStories(category: StoryFilter) {
  return useQuery<StoriesResponse>({
    queryKey: storiesKey(category),
    queryFn: async ({ signal }) => {
      const res = await fetch(category === 'all' ? '/api/stories' : `/api/stories?category=${encodeURIComponent(category)}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as StoriesResponse;
    },
  });
}

/** Every cached list, with one story changed wherever it appears. */
function patchStory(client: QueryClient, id: string, patch: (s: Story) => Story) {
  client.setQueriesData<StoriesResponse>({ queryKey: STORIES_KEY }, (old) =>
    old ? { ...old, stories: old.stories.map((s) => (s.id === id ? patch(s) : s)), featured: old.featured.map((s) => (s.id === id ? patch(s) : s)) } : old,
  );
}

const refreshStories = (client: QueryClient) => void client.invalidateQueries({ queryKey: STORIES_KEY });

/** POST /api/stories; refreshes the story list (spec section 7) and the points it earned. */
export function useShareStory() {
  const client = useQueryClient();
  return useMutation<StoryCreated, Error, StoryBody>({
    mutationFn: (body) => apiJson<StoryCreated>('POST', '/api/stories', body),
    onSuccess: () => {
      refreshStories(client);
      for (const key of [AUTH_USER_KEY, ['/api/gaming/progress'], ['/api/user/stats'], ['/api/user/badges'], ['/api/user/activities']]) void client.invalidateQueries({ queryKey: key });
    },
  });
}

/** POST /api/stories/:id/like with the wanted state, so a double click cannot undo itself. */
export function useLikeStory() {
  const client = useQueryClient();
  return useMutation<LikeResponse, Error, { id: string; liked: boolean }>({
    mutationFn: ({ id, liked }) => apiJson<LikeResponse>('POST', `/api/stories/${encodeURIComponent(id)}/like`, { liked }),
    onSuccess: (res, { id }) => patchStory(client, id, (s) => ({ ...s, likedByMe: res.liked, likes: res.likes })),
  });
}

/** POST /api/stories/:id/view: once per member per day, counted by the server. */
export function useViewStory() {
  const client = useQueryClient();
  return useMutation<ViewResponse, Error, string>({
    mutationFn: (id) => apiJson<ViewResponse>('POST', `/api/stories/${encodeURIComponent(id)}/view`),
    onSuccess: (res, id) => patchStory(client, id, (s) => ({ ...s, views: res.views })),
  });
}

/** POST /api/stories/:id/report. */
export function useReportStory() {
  const client = useQueryClient();
  return useMutation<ReportResponse, Error, { id: string; reason?: string }>({
    mutationFn: ({ id, reason }) => apiJson<ReportResponse>('POST', `/api/stories/${encodeURIComponent(id)}/report`, reason ? { reason } : {}),
    onSuccess: (res, { id }) => (res.hidden ? refreshStories(client) : patchStory(client, id, (s) => ({ ...s, reportedByMe: true }))),
  });
}

/** PATCH /api/stories/:id (admin): feature or unfeature. */
export function useFeatureStory() {
  const client = useQueryClient();
  return useMutation<Story, Error, { id: string; featured: boolean }>({
    mutationFn: ({ id, featured }) => apiJson<Story>('PATCH', `/api/stories/${encodeURIComponent(id)}`, { featured }),
    onSuccess: () => refreshStories(client),
  });
}

/** POST /api/stories/:id/review (admin): restore or remove a hidden story. */
export function useReviewStory() {
  const client = useQueryClient();
  return useMutation<ReviewResponse, Error, { id: string; action: 'restore' | 'remove' }>({
    mutationFn: ({ id, action }) => apiJson<ReviewResponse>('POST', `/api/stories/${encodeURIComponent(id)}/review`, { action }),
    onSuccess: () => refreshStories(client),
  });
}

/** POST /api/stories/generate (admin): one story from the generator. */
export function useGenerateStory() {
  const client = useQueryClient();
  return useMutation<Story, Error, { category?: 'legend' | 'history' | 'mystery'; place?: string }>({
    mutationFn: (body) => apiJson<Story>('POST', '/api/stories/generate', body),
    onSuccess: () => refreshStories(client),
  });
}
