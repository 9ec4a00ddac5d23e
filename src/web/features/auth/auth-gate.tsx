import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useAuth } from './auth.queries.ts';

export const AUTH_REDIRECT_MS = 1000;

export const loginUrl = (returnTo: string) => `/api/login?returnTo=${encodeURIComponent(returnTo)}`;

/** Spec section 4: spinner while pending; signed out, 'Please Log In' then the login path after 1 s. */
export function AuthGate({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  const [location] = useLocation();
  const signedOut = !isLoading && !isAuthenticated;

  useEffect(() => {
    if (!signedOut) return;
    toast({ title: 'Authentication Required', description: 'Please log in to access this feature.', variant: 'destructive' });
    // The second counts from the first frame that shows the notice: on a busy page the effect can
    // run tens of milliseconds before the notice is drawn, and the notice was then seen for less.
    let t: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      t = setTimeout(() => {
        window.location.href = loginUrl(location + window.location.search);
      }, AUTH_REDIRECT_MS);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(t);
    };
  }, [signedOut, location]);

  if (isLoading) return <Spinner label="Checking your sign-in" />;
  if (signedOut) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-3xl font-bold">Please Log In</h1>
        <p className="text-muted-foreground">Taking you to the sign-in page…</p>
      </main>
    );
  }
  return <>{children}</>;
}
