import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EventSummary } from '../../../contract/events.ts';
import type {
  AddAppearanceBody,
  CreateVendorBody,
  EventVendorsResponse,
  FollowResponse,
  OwnerLookupResponse,
  UpdateVendorBody,
  VendorAppearance,
  VendorCategory,
  VendorDetail,
  VendorListResponse,
} from '../../../contract/vendors.ts';
import { apiJson, throwIfResNotOk } from '../../lib/api-client.ts';

export const VENDORS_KEY = ['/api/vendors'] as const;
export const vendorKey = (id: string) => ['/api/vendors', id] as const;
export const eventVendorsKey = (eventId: string) => ['/api/events', eventId, 'vendors'] as const;

export interface VendorFilter {
  search: string;
  category: VendorCategory | 'all';
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

/** The list's query string: only the filters that narrow it. */
export function vendorListQuery(f: VendorFilter): string {
  const p = new URLSearchParams();
  if (f.search.trim()) p.set('search', f.search.trim());
  if (f.category !== 'all') p.set('category', f.category);
  return p.toString();
}

/** GET /api/vendors with the search and category applied on the server. */
export function useVendorList(f: VendorFilter) {
  const query = vendorListQuery(f);
  return useQuery({
    queryKey: [...VENDORS_KEY, { query }],
    queryFn: ({ signal }) => getJson<VendorListResponse>(`/api/vendors${query ? `?${query}` : ''}`, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/vendors/:id. */
export function useVendor(id: string) {
  return useQuery<VendorDetail>({ queryKey: vendorKey(id), enabled: Boolean(id) });
}

/** GET /api/events/:id/vendors: "Who's here". */
export function useEventVendors(eventId: string) {
  return useQuery<EventVendorsResponse>({ queryKey: eventVendorsKey(eventId), enabled: Boolean(eventId) });
}

/** Admin: accounts whose email contains the text, to pick a vendor's owner. */
export function useOwnerLookup(email: string) {
  const q = email.trim();
  return useQuery({
    queryKey: ['/api/vendors/owners', q],
    queryFn: ({ signal }) => getJson<OwnerLookupResponse>(`/api/vendors/owners?email=${encodeURIComponent(q)}`, signal),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
}

/** Upcoming events whose title or venue matches, to add an appearance. */
export function useEventSearch(search: string) {
  const q = search.trim();
  return useQuery({
    queryKey: ['/api/events', { vendorAppearanceSearch: q }],
    queryFn: ({ signal }) => getJson<EventSummary[]>(`/api/events?${new URLSearchParams({ search: q, sortBy: 'date', limit: '10' }).toString()}`, signal),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function useCreateVendor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateVendorBody) => apiJson<VendorDetail>('POST', '/api/vendors', body),
    onSuccess: (v) => {
      qc.setQueryData(vendorKey(v.id), v);
      void qc.invalidateQueries({ queryKey: VENDORS_KEY });
    },
  });
}

export function useUpdateVendor(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateVendorBody) => apiJson<VendorDetail>('PATCH', `/api/vendors/${encodeURIComponent(id)}`, body),
    onSuccess: (v) => {
      qc.setQueryData(vendorKey(id), v);
      void qc.invalidateQueries({ queryKey: VENDORS_KEY, predicate: (q) => q.queryKey[1] !== id });
    },
  });
}

export function useAddAppearance(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddAppearanceBody) => apiJson<VendorAppearance>('POST', `/api/vendors/${encodeURIComponent(id)}/appearances`, body),
    onSuccess: (a) => {
      void qc.invalidateQueries({ queryKey: vendorKey(id) });
      void qc.invalidateQueries({ queryKey: eventVendorsKey(a.eventId) });
    },
  });
}

export function useToggleFollow(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<FollowResponse>('POST', `/api/vendors/${encodeURIComponent(id)}/follow`),
    onSuccess: (r) => {
      qc.setQueryData<VendorDetail>(vendorKey(id), (v) => (v ? { ...v, ...r } : v));
    },
  });
}
