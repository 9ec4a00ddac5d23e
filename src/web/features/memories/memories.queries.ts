import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { GALLERY_LIMIT, type AddToHuntResponse, type Geosymbol, type InjectBody, type InjectResponse, type ProcessedResponse, type VoteResponse } from '../../../contract/memories.ts';
import { apiJson, throwIfResNotOk } from '../../lib/api-client.ts';

export const GALLERY_KEY = ['/api/geosymbol/processed', 'community', GALLERY_LIMIT] as const;

/** GET /api/geosymbol/processed?privacyLevel=community&limit=6: the community gallery. */
export function useGallery() {
  return useQuery<ProcessedResponse>({
    queryKey: GALLERY_KEY,
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/geosymbol/processed?privacyLevel=community&limit=${GALLERY_LIMIT}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as ProcessedResponse;
    },
  });
}

const refreshGallery = (client: QueryClient) => void client.invalidateQueries({ queryKey: ['/api/geosymbol/processed'] });

/** POST /api/geosymbol/inject: forges a memory; the gallery refreshes. */
export function useForgeMemory() {
  const client = useQueryClient();
  return useMutation<InjectResponse, Error, InjectBody>({
    mutationFn: (body) => apiJson<InjectResponse>('POST', '/api/geosymbol/inject', body),
    onSuccess: () => refreshGallery(client),
  });
}

/** POST /api/geosymbol/:id/vote: toggles the viewer's vote. */
export function useVoteGeosymbol() {
  const client = useQueryClient();
  return useMutation<VoteResponse, Error, string>({
    mutationFn: (id) => apiJson<VoteResponse>('POST', `/api/geosymbol/${encodeURIComponent(id)}/vote`),
    onSuccess: (res, id) =>
      client.setQueriesData<ProcessedResponse>({ queryKey: ['/api/geosymbol/processed'] }, (old) =>
        old ? { symbols: old.symbols.map((s): Geosymbol => (s.id === id ? { ...s, voted: res.voted, metadata: { ...s.metadata, communityVotes: res.communityVotes } } : s)) } : old,
      ),
  });
}

/** POST /api/geosymbol/:id/add-to-hunt: the author's memory becomes a node of the active hunt. */
export function useAddToHunt() {
  const client = useQueryClient();
  return useMutation<AddToHuntResponse, Error, string>({
    mutationFn: (id) => apiJson<AddToHuntResponse>('POST', `/api/geosymbol/${encodeURIComponent(id)}/add-to-hunt`),
    onSuccess: () => {
      refreshGallery(client);
      void client.invalidateQueries({ queryKey: ['/api/map'] });
    },
  });
}
