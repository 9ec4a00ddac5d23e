import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EventSummary } from '../../../contract/events.ts';
import type { CreateNodeBody, EvidenceBody, EvidenceResponse, HuntProgress, MapResponse, PendingEvidence, QuestNode, UpdateNodeBody } from '../../../contract/quests.ts';
import { apiJson } from '../../lib/api-client.ts';
import { GAMING_KEYS } from '../gaming/gaming.queries.ts';

export const MAP_KEY = ['/api/map'] as const;
export const PROGRESS_KEY = ['/api/hunt/progress'] as const;
export const EVIDENCE_KEY = ['/api/admin/hunt/evidence'] as const;
/** Upcoming approved events (the list leaves out ended ones), soonest first. */
export const MAP_EVENTS_KEY = ['/api/events?sortBy=date&limit=100'] as const;

/** GET /api/map: nodes and active hunts. */
export function useQuestMap() {
  return useQuery<MapResponse>({ queryKey: MAP_KEY });
}

/** GET /api/hunt/progress: the player's points, level and completed nodes. */
export function useHuntProgress() {
  return useQuery<HuntProgress>({ queryKey: PROGRESS_KEY });
}

/** Upcoming events for the map layer; fetched only while the layer is on. */
export function useMapEvents(enabled: boolean) {
  return useQuery<EventSummary[]>({ queryKey: MAP_EVENTS_KEY, enabled });
}

/** POST /api/hunt/nodes/:id/evidence; the answer carries fresh progress. */
export function useSubmitEvidence() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ nodeId, body }: { nodeId: string; body: EvidenceBody }) => apiJson<EvidenceResponse>('POST', `/api/hunt/nodes/${nodeId}/evidence`, body),
    onSuccess: (res) => {
      qc.setQueryData(PROGRESS_KEY, res.progress);
      // The header's points and the profile read the same ledger.
      for (const key of [GAMING_KEYS.progress, GAMING_KEYS.stats, GAMING_KEYS.activities]) void qc.invalidateQueries({ queryKey: key });
    },
  });
}

/** Admin: POST /api/map/nodes. */
export function useCreateNode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<CreateNodeBody> & Pick<CreateNodeBody, 'name' | 'category' | 'points' | 'latitude' | 'longitude'>) => apiJson<QuestNode>('POST', '/api/map/nodes', body),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: MAP_KEY }), qc.invalidateQueries({ queryKey: PROGRESS_KEY })]),
  });
}

/** Admin: PATCH /api/map/nodes/:id (moving a node, editing it). */
export function useUpdateNode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateNodeBody }) => apiJson<QuestNode>('PATCH', `/api/map/nodes/${id}`, body),
    onSuccess: (node) => {
      qc.setQueryData<MapResponse>(MAP_KEY, (old) => (old ? { ...old, nodes: old.nodes.map((n) => (n.id === node.id ? node : n)) } : old));
    },
  });
}

/** Admin: pending photo evidence. */
export function usePendingEvidence(enabled: boolean) {
  return useQuery<{ evidence: PendingEvidence[]; total: number }>({ queryKey: EVIDENCE_KEY, enabled });
}

/** Admin: accept or reject a pending photo. */
export function useReviewEvidence() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'accept' | 'reject' }) => apiJson<{ status: string }>('POST', `/api/admin/hunt/evidence/${id}/${decision}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: EVIDENCE_KEY }),
  });
}
