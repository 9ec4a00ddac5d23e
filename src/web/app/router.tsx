import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner.tsx';
import { AuthGate } from '../features/auth/auth-gate.tsx';
import { useAuth } from '../features/auth/auth.queries.ts';
import { useInterfaceMode } from '../features/auth/interface-mode.ts';
import { InterfaceModePanel } from '../features/admin/interface-mode-panel.tsx';
import { AppShell } from './layout/app-shell.tsx';

// Every page is its own chunk, so the landing page does not load feature code.
const LandingPage = lazy(() => import('../features/landing/landing-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup-page.tsx'));
const DiscoverPage = lazy(() => import('../features/discover/discover-page.tsx'));
const AdminDashboardPage = lazy(() => import('../features/admin/admin-dashboard-page.tsx'));
const EventPage = lazy(() => import('../features/events/event-page.tsx'));
const SourcesPage = lazy(() => import('../features/admin/sources-page.tsx'));
const QrScannerPage = lazy(() => import('../features/gaming/qr-scanner-page.tsx'));
const LeaderboardPage = lazy(() => import('../features/gaming/leaderboard-page.tsx'));
const NotFoundPage = lazy(() => import('../features/shell/not-found-page.tsx'));
const PendingFeaturePage = lazy(() => import('../features/shell/pending-feature-page.tsx'));

/** Feature routes whose screens arrive in later work: each shows its frame and heading only. */
const PENDING: { path: string; title: string }[] = [
  { path: '/map', title: 'Quest Map' },
  { path: '/vendors', title: 'Local Vendors' },
  { path: '/shop', title: 'Marketplace' },
  { path: '/stories', title: 'Community Stories' },
  { path: '/memory-forge', title: 'Memory Forge' },
  { path: '/scanner', title: 'Event Flyer Scanner' },
  { path: '/ar-discovery', title: 'AR Event Discovery' },
  { path: '/ai-chat', title: 'AI Admin Console' },
];

function Gated({ children }: { children: ReactNode }) {
  return (
    <AuthGate>
      <AppShell>{children}</AppShell>
    </AuthGate>
  );
}

/** Public pages (reading events needs no sign-in): the shell when signed in, a plain frame otherwise. */
function PublicShell({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Checking your sign-in" />;
  if (isAuthenticated) return <AppShell>{children}</AppShell>;
  return <main className="mx-auto max-w-5xl px-4 py-6">{children}</main>;
}

/** `/`: the landing page signed out; the admin dashboard for an admin in admin mode; else Discover. */
function Home() {
  const { isLoading, isAuthenticated, isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  if (isLoading) return <Spinner label="Checking your sign-in" />;
  if (!isAuthenticated) return <LandingPage />;
  return <AppShell>{isAdmin && mode === 'admin' ? <AdminDashboardPage /> : <DiscoverPage />}</AppShell>;
}

/** Admin-only routes: users not in admin mode go to the user dashboard. */
function AdminOnly({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  if (!isAdmin || mode !== 'admin') return <Redirect to="/dashboard" />;
  return <>{children}</>;
}

export function AppRouter() {
  const { isAdmin } = useAuth();
  return (
    <Suspense fallback={<Spinner />}>
      <Switch>
        <Route path="/" component={Home} />
        <Route path="/login" component={LoginPage} />
        <Route path="/signup" component={SignupPage} />
        <Route path="/dashboard">
          <Gated>
            <DiscoverPage />
          </Gated>
        </Route>
        <Route path="/events/:id">
          <PublicShell>
            <EventPage />
          </PublicShell>
        </Route>
        <Route path="/admin">
          <Gated>
            <AdminOnly>
              <AdminDashboardPage />
            </AdminOnly>
          </Gated>
        </Route>
        <Route path="/qr-scanner">
          <Gated>
            <QrScannerPage />
          </Gated>
        </Route>
        <Route path="/leaderboard">
          <Gated>
            <LeaderboardPage />
          </Gated>
        </Route>
        <Route path="/admin/sources">
          <Gated>
            <AdminOnly>
              <SourcesPage />
            </AdminOnly>
          </Gated>
        </Route>
        <Route path="/admin/chat">
          <Gated>
            <AdminOnly>
              <PendingFeaturePage title="Admin AI Chat" />
            </AdminOnly>
          </Gated>
        </Route>
        {PENDING.map((p) => (
          <Route key={p.path} path={p.path}>
            <Gated>
              <PendingFeaturePage title={p.title} />
            </Gated>
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
      {isAdmin && <InterfaceModePanel />}
    </Suspense>
  );
}
