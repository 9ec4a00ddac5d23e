import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FavoriteToggleResponse } from '../../../contract/events.ts';
import type { z } from 'zod';
import { toast } from '../../components/ui/use-toast.ts';
import { apiJson, ApiError } from '../../lib/api-client.ts';
import { AUTH_USER_KEY, useAuth } from '../auth/auth.queries.ts';
import { isEventQueryKey, setFavoriteInCache } from './events.queries.ts';

/** Spec section 9: the login redirect follows a login-required favourite after 500 ms. */
export const FAVORITE_REDIRECT_MS = 500;

type ToggleResult = z.infer<typeof FavoriteToggleResponse>;

/** The full-page navigation to sign-in; an object so tests can watch it (jsdom cannot navigate). */
export const loginNavigation = {
  go(url: string) {
    window.location.href = url;
  },
};

function redirectToLogin() {
  const returnTo = window.location.pathname + window.location.search;
  setTimeout(() => loginNavigation.go(`/api/login?returnTo=${encodeURIComponent(returnTo)}`), FAVORITE_REDIRECT_MS);
}

/**
 * Favouriting (spec sections 5 and 8): signed out, 'Login Required' then login; a 401 from the
 * POST, 'Unauthorized' then login; any other failure, 'Failed to update favorite'. On success the
 * caches take the server's answer and the points chip refreshes (a new favourite can earn points).
 */
export function useToggleFavorite() {
  const { user } = useAuth();
  const client = useQueryClient();
  const mutation = useMutation<ToggleResult, Error, string>({
    mutationFn: (id) => apiJson<ToggleResult>('POST', `/api/user/favorites/${encodeURIComponent(id)}`),
    onSuccess: (res, id) => {
      setFavoriteInCache(client, id, res.isFavorited);
      void client.invalidateQueries({ queryKey: AUTH_USER_KEY });
      // Lists, details, recommendations and favourites; counts and stats do not depend on favourites.
      void client.invalidateQueries({
        predicate: (q) => isEventQueryKey(q.queryKey) && q.queryKey[0] !== '/api/events/stats' && q.queryKey[0] !== '/api/events/facets',
      });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 401) {
        toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
        redirectToLogin();
        return;
      }
      toast({ title: 'Error', description: 'Failed to update favorite', variant: 'destructive' });
    },
  });

  /** Toggles the event; `onDone` hears the new state when the server answers. */
  function toggle(id: string, onDone?: (isFavorited: boolean) => void) {
    if (!user) {
      toast({ title: 'Login Required', description: 'Please log in to save favorites' });
      redirectToLogin();
      return;
    }
    mutation.mutate(id, { onSuccess: (res) => onDone?.(res.isFavorited) });
  }

  return { toggle, isPending: mutation.isPending, pendingId: mutation.isPending ? mutation.variables : undefined };
}
