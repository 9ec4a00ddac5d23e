import { useQuery } from '@tanstack/react-query';
import type { AuthUser } from '../../../contract/auth.ts';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

/**
 * The auth lookup of spec section 4: 401, 429, any other failure and a network error all
 * mean signed out; only the console hears about the last three.
 */
export async function fetchAuthUser(): Promise<AuthUser | null> {
  let res: Response;
  try {
    res = await fetch('/api/auth/user', { credentials: 'include' });
  } catch {
    console.log('Auth network error');
    return null;
  }
  if (res.status === 401) return null;
  if (res.status === 429) {
    console.log('Auth rate limited, skipping check');
    return null;
  }
  if (!res.ok) {
    console.log(`Auth check failed: ${res.status}`);
    return null;
  }
  const user = (await res.json()) as AuthUser;
  return user?.id ? user : null;
}

export function useAuth() {
  const { data, isLoading, error } = useQuery({
    queryKey: AUTH_USER_KEY,
    queryFn: fetchAuthUser,
    staleTime: 120_000,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnMount: false,
    refetchInterval: false,
  });
  const user = data ?? null;
  return {
    user,
    isLoading,
    isAuthenticated: Boolean(user?.id) && !error,
    isAdmin: user?.role === 'admin',
  };
}
