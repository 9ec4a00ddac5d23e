import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner.tsx';
import { AdminChatAuthGate, AdminRoleOnly } from '../features/assistant/assistant-gates.tsx';
import { AuthGate } from '../features/auth/auth-gate.tsx';
import { useAuth } from '../features/auth/auth.queries.ts';
import { useInterfaceMode } from '../features/auth/interface-mode.ts';

// Every page is its own chunk, so the landing page does not load feature code; nor does it load
// the signed-in shell (menus, dialogs, notifications, the realtime client and their schemas).
const AppShell = lazy(() => import('./layout/app-shell.tsx'));
const loadLanding = () => import('../features/landing/landing-page.tsx');
const LandingPage = lazy(loadLanding);
// At `/` the landing page is the likely first screen: fetch it while the sign-in check runs.
if (typeof window !== 'undefined' && window.location.pathname === '/') loadLanding().catch(() => undefined);
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup-page.tsx'));
const DiscoverPage = lazy(() => import('../features/discover/discover-page.tsx'));
const AdminDashboardPage = lazy(() => import('../features/admin/admin-dashboard-page.tsx'));
const EventPage = lazy(() => import('../features/events/event-page.tsx'));
const SourcesPage = lazy(() => import('../features/admin/sources-page.tsx'));
const QrScannerPage = lazy(() => import('../features/gaming/qr-scanner-page.tsx'));
const LeaderboardPage = lazy(() => import('../features/gaming/leaderboard-page.tsx'));
const FlyerScannerPage = lazy(() => import('../features/scan/flyer-scanner-page.tsx'));
const ShopPage = lazy(() => import('../features/shop/shop-page.tsx'));
const ShopOrdersPage = lazy(() => import('../features/shop/orders-page.tsx'));
const ShopOrderPage = lazy(() => import('../features/shop/order-page.tsx'));
const VendorOrdersPage = lazy(() => import('../features/shop/vendor-orders-page.tsx'));
const VendorsPage = lazy(() => import('../features/vendors/vendors-page.tsx'));
const VendorPage = lazy(() => import('../features/vendors/vendor-page.tsx'));
const StoriesPage = lazy(() => import('../features/stories/stories-page.tsx'));
const WelcomePage = lazy(() => import('../features/recommendations/welcome-page.tsx'));
const AdminChatPage = lazy(() => import('../features/assistant/admin-chat-page.tsx'));
const AiConsolePage = lazy(() => import('../features/assistant/ai-console-page.tsx'));
const NotFoundPage = lazy(() => import('../features/shell/not-found-page.tsx'));
const PendingFeaturePage = lazy(() => import('../features/shell/pending-feature-page.tsx'));
const MapPage = lazy(() => import('../features/quests/map-page.tsx'));
const ArDiscoveryPage = lazy(() => import('../features/ar/ar-discovery-page.tsx'));
const MemoryForgePage = lazy(() => import('../features/memories/memory-forge-page.tsx'));

/** Feature routes whose screens arrive in later work: each shows its frame and heading only. */
const PENDING: { path: string; title: string }[] = [
];

/** Signed out, a page outside the shell gets a plain frame of its own. */
function PlainFrame({ children, className = 'mx-auto max-w-5xl px-4 py-6' }: { children: ReactNode; className?: string }) {
  const { isAuthenticated } = useAuth();
  if (isAuthenticated) return <>{children}</>;
  return <main className={className}>{children}</main>;
}

/** `/`: the landing page signed out; the admin dashboard for an admin in admin mode; else Discover. */
function Home() {
  const { isAuthenticated, isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  if (!isAuthenticated) return <LandingPage />;
  return isAdmin && mode === 'admin' ? <AdminDashboardPage /> : <DiscoverPage />;
}

/** Admin-only routes: users not in admin mode go to the user dashboard. */
function AdminOnly({ children }: { children: ReactNode }) {
  const { isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  if (!isAdmin || mode !== 'admin') return <Redirect to="/dashboard" />;
  return <>{children}</>;
}

/** Every page but sign-in and sign-up; signed in, they render inside the one AppShell. */
function Pages() {
  return (
    <Switch>
      <Route path="/" component={Home} />
      <Route path="/dashboard">
        <AuthGate>
          <DiscoverPage />
        </AuthGate>
      </Route>
      {/* Reading an event needs no sign-in. */}
      <Route path="/events/:id">
        <PlainFrame>
          <EventPage />
        </PlainFrame>
      </Route>
      <Route path="/admin">
        <AuthGate>
          <AdminOnly>
            <AdminDashboardPage />
          </AdminOnly>
        </AuthGate>
      </Route>
      <Route path="/qr-scanner">
        <AuthGate>
          <QrScannerPage />
        </AuthGate>
      </Route>
      <Route path="/scanner">
        <AuthGate>
          <FlyerScannerPage />
        </AuthGate>
      </Route>
      <Route path="/leaderboard">
        <AuthGate>
          <LeaderboardPage />
        </AuthGate>
      </Route>
      <Route path="/admin/sources">
        <AuthGate>
          <AdminOnly>
            <SourcesPage />
          </AdminOnly>
        </AuthGate>
      </Route>
      <Route path="/admin/chat">
        <AdminChatAuthGate>
          <AdminOnly>
            <AdminChatPage />
          </AdminOnly>
        </AdminChatAuthGate>
      </Route>
      <Route path="/ai-chat">
        <AuthGate>
          <AdminRoleOnly>
            <AiConsolePage />
          </AdminRoleOnly>
        </AuthGate>
      </Route>
      <Route path="/shop">
        <AuthGate>
          <ShopPage />
        </AuthGate>
      </Route>
      <Route path="/shop/orders">
        <AuthGate>
          <ShopOrdersPage />
        </AuthGate>
      </Route>
      <Route path="/shop/orders/:id">
        <AuthGate>
          <ShopOrderPage />
        </AuthGate>
      </Route>
      <Route path="/shop/vendor-orders">
        <AuthGate>
          <VendorOrdersPage />
        </AuthGate>
      </Route>
      <Route path="/vendors">
        <AuthGate>
          <VendorsPage />
        </AuthGate>
      </Route>
      <Route path="/vendors/:id">
        <AuthGate>
          <VendorPage />
        </AuthGate>
      </Route>
      <Route path="/stories">
        <AuthGate>
          <StoriesPage />
        </AuthGate>
      </Route>
      <Route path="/welcome">
        <AuthGate>
          <WelcomePage />
        </AuthGate>
      </Route>
      <Route path="/map">
        <AuthGate>
          <MapPage />
        </AuthGate>
      </Route>
      <Route path="/ar-discovery">
        <AuthGate>
          <ArDiscoveryPage />
        </AuthGate>
      </Route>
      <Route path="/memory-forge">
        <AuthGate>
          <MemoryForgePage />
        </AuthGate>
      </Route>
      {PENDING.map((p) => (
        <Route key={p.path} path={p.path}>
          <AuthGate>
            <PendingFeaturePage title={p.title} />
          </AuthGate>
        </Route>
      ))}
      <Route>
        <PlainFrame className="flex min-h-screen flex-col items-center justify-center p-6">
          <NotFoundPage />
        </PlainFrame>
      </Route>
    </Switch>
  );
}

export function AppRouter() {
  const { isLoading, isAuthenticated } = useAuth();
  return (
    <Switch>
      <Route path="/login">
        <Suspense fallback={<Spinner />}>
          <LoginPage />
        </Suspense>
      </Route>
      <Route path="/signup">
        <Suspense fallback={<Spinner />}>
          <SignupPage />
        </Suspense>
      </Route>
      <Route>
        {isLoading ? (
          <Spinner label="Checking your sign-in" />
        ) : isAuthenticated ? (
          // One shell for every signed-in page: it is not remounted when the route changes, and a
          // page still loading shows its spinner inside the page area, under the header. The shell's
          // own chunk loads only here, once someone is signed in.
          <Suspense fallback={<Spinner />}>
            <AppShell>
              <Suspense fallback={<Spinner />}>
                <Pages />
              </Suspense>
            </AppShell>
          </Suspense>
        ) : (
          <Suspense fallback={<Spinner />}>
            <Pages />
          </Suspense>
        )}
      </Route>
    </Switch>
  );
}
