import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { safeReturnTo, type AuthUser } from '../../../contract/auth.ts';
import { ApiError, apiJson } from '../../lib/api-client.ts';
import { AUTH_USER_KEY } from './auth.queries.ts';
import { fieldErrors } from './auth-form.tsx';

/** Posts a sign-in or sign-up form; on success stores the user and goes to returnTo (or where `then` says). */
export function useAuthSubmit<Body>(url: string, onFieldErrors: (e: Record<string, string>) => void, then: (returnTo: string) => string = (to) => to) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: (body: Body) => apiJson<AuthUser>('POST', url, body),
    onSuccess: (user) => {
      queryClient.setQueryData(AUTH_USER_KEY, user);
      navigate(then(safeReturnTo(new URLSearchParams(window.location.search).get('returnTo'))));
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 400) {
        try {
          const parsed = JSON.parse(err.body) as { issues?: { path: string; message: string }[] };
          if (parsed.issues) onFieldErrors(fieldErrors(parsed.issues));
        } catch {
          // Not our JSON shape; the form-level message below covers it.
        }
      }
    },
  });
}

/** What the form says above its button when the server refused. */
export function formError(err: unknown): string | null {
  if (!err) return null;
  if (err instanceof ApiError) return err.serverMessage ?? err.message;
  return 'Could not reach the server. Check your connection and try again.';
}
