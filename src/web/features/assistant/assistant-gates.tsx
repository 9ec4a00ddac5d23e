import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { loginUrl } from '../auth/auth-gate.tsx';
import { useAuth } from '../auth/auth.queries.ts';

/** Spec section 4: signed out on the admin chat, an 'Unauthorized' notice, then the login path after 500 ms. */
export const ADMIN_CHAT_REDIRECT_MS = 500;

/** The admin chat's own sign-in gate (the other pages wait 1 s and say 'Please Log In'). */
export function AdminChatAuthGate({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  const [location] = useLocation();
  const signedOut = !isLoading && !isAuthenticated;
  useEffect(() => {
    if (!signedOut) return;
    toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
    const t = setTimeout(() => {
      window.location.href = loginUrl(location);
    }, ADMIN_CHAT_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [signedOut, location]);
  if (isLoading) return <Spinner label="Checking your sign-in" />;
  if (signedOut) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-3xl font-bold">Unauthorized</h1>
        <p className="text-muted-foreground">Taking you to the sign-in page…</p>
      </main>
    );
  }
  return <>{children}</>;
}

/** The AI console is for admins (in either interface mode); everyone else goes to the user dashboard. */
export function AdminRoleOnly({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) return <Redirect to="/dashboard" />;
  return <>{children}</>;
}
