import * as Menu from '@radix-ui/react-dropdown-menu';
import { ChevronLeft, ChevronRight, Search, Star, UserRound } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useAuth } from '../../features/auth/auth.queries.ts';
import { useInterfaceMode } from '../../features/auth/interface-mode.ts';
import { InterfaceModeControl } from '../../features/admin/interface-mode-panel.tsx';
import { ProfileDialog } from '../../features/shell/profile-dialog.tsx';
import { AdminOverlay } from '../../features/admin/admin-overlay.tsx';
import { OpenAdminDashboardContext } from '../../features/admin/open-admin-dashboard.ts';
import { NotificationBell, NotificationCenter, receiveServerNotification } from '../../features/gaming/notifications.tsx';
import { useRealtime } from '../../lib/use-realtime.ts';
import { TooltipProvider } from '../../components/ui/tooltip.tsx';
import { clearDrafts } from '../../lib/use-draft.ts';

export interface NavLink {
  href: string;
  label: string;
  /** Shown only to the real admin in admin mode (anyone else is sent from it to the user dashboard). */
  adminOnly?: boolean;
}

export const NAV_LINKS: readonly NavLink[] = [
  { href: '/', label: 'Discover' },
  { href: '/map', label: 'Quest Map' },
  { href: '/vendors', label: 'Vendors' },
  { href: '/shop', label: 'Shop' },
  { href: '/stories', label: 'Stories' },
  { href: '/memory-forge', label: 'Memory Forge' },
  { href: '/qr-scanner', label: 'QR Scanner' },
  { href: '/ar-discovery', label: 'AR Discovery' },
  { href: '/admin', label: 'Admin', adminOnly: true },
];

/** The navigation items a viewer sees: the Admin item only for the admin in admin mode. */
export function visibleNavLinks(isAdmin: boolean, mode: 'user' | 'admin'): NavLink[] {
  return NAV_LINKS.filter((l) => !l.adminOnly || (isAdmin && mode === 'admin'));
}

const DISCOVER_PATHS = new Set(['/', '/dashboard']);
export const SEARCH_DEBOUNCE_MS = 300;

/** The top-bar search: debounced into the `search` query parameter of the Discover page. */
function SearchBox() {
  const [location, navigate] = useLocation();
  const [params] = useSearchParams();
  const current = params.get('search') ?? '';
  const [value, setValue] = useState(current);
  // When the URL changes from elsewhere (back button, a link), the box follows it.
  const [seen, setSeen] = useState(current);
  if (seen !== current) {
    setSeen(current);
    setValue(current);
  }
  useEffect(() => {
    if (value === current) return;
    const t = setTimeout(() => {
      const next = new URLSearchParams(DISCOVER_PATHS.has(location) ? params : undefined);
      if (value.trim()) next.set('search', value);
      else next.delete('search');
      const qs = next.toString();
      navigate(`${DISCOVER_PATHS.has(location) ? location : '/dashboard'}${qs ? `?${qs}` : ''}`, { replace: DISCOVER_PATHS.has(location) });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [value, current, location, params, navigate]);
  return (
    <div className="relative w-full min-w-0">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <input
        type="search"
        aria-label="Search events"
        placeholder="Search events, venues, or categories..."
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="min-h-11 w-full rounded-full border border-border bg-background pl-9 pr-4 text-sm outline-none focus:border-ring"
      />
    </div>
  );
}

/** Room kept clear at each end of the navigation scroller, for its fade and arrow. */
const NAV_EDGE_PX = 40;

/**
 * The top navigation: one row that scrolls sideways when it does not fit (a phone). Fades and
 * arrows at the edges show that there is more; the current page's item is kept in view.
 */
function MainNav({ links, location }: { links: NavLink[]; location: string }) {
  const listRef = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const el = listRef.current;
    if (!el) return;
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
  }, []);

  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [measure]);

  // Bring the current page's item into view (only sideways: the page itself does not move).
  useEffect(() => {
    const el = listRef.current;
    const active = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !active) return;
    const box = el.getBoundingClientRect();
    const item = active.getBoundingClientRect();
    if (item.left < box.left + NAV_EDGE_PX) el.scrollLeft -= box.left + NAV_EDGE_PX - item.left;
    else if (item.right > box.right - NAV_EDGE_PX) el.scrollLeft += item.right - (box.right - NAV_EDGE_PX);
    measure();
  }, [location, links.length, measure]);

  const scrollBy = (dir: -1 | 1) => listRef.current?.scrollBy({ left: dir * Math.max(120, listRef.current.clientWidth * 0.6), behavior: 'smooth' });
  const edge = 'absolute inset-y-0 flex w-10 items-center text-muted-foreground hover:text-foreground';

  return (
    <nav aria-label="Main" className="relative mx-auto max-w-7xl">
      <ul
        ref={listRef}
        className="flex gap-1 overflow-x-auto whitespace-nowrap px-2 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        style={{ scrollPaddingInline: NAV_EDGE_PX }}
      >
        {links.map((l) => {
          const active = l.href === '/' ? DISCOVER_PATHS.has(location) : location === l.href || location.startsWith(`${l.href}/`);
          return (
            <li key={l.href} className="shrink-0">
              <Link
                href={l.href}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium ${active ? 'border-primary text-primary' : 'border-transparent text-muted-foreground hover:text-foreground'}`}
              >
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
      {/* Mouse users get arrows; touch and keyboard users scroll or tab, so the arrows stay out of the tab order. */}
      {more.before && (
        <button
          type="button"
          tabIndex={-1}
          aria-label="Scroll navigation back"
          onClick={() => scrollBy(-1)}
          className={`${edge} left-0 justify-start bg-linear-to-r from-card from-40% to-transparent pl-1`}
        >
          <ChevronLeft className="h-4 w-4" aria-hidden />
        </button>
      )}
      {more.after && (
        <button
          type="button"
          tabIndex={-1}
          aria-label="Scroll navigation forward"
          onClick={() => scrollBy(1)}
          className={`${edge} right-0 justify-end bg-linear-to-l from-card from-40% to-transparent pr-1`}
          data-testid="nav-more"
        >
          <ChevronRight className="h-4 w-4" aria-hidden />
        </button>
      )}
    </nav>
  );
}

/** Keeps `--header-height` on the root equal to the sticky header, so scrolling to an element (focus, anchors) stops below it. */
function useHeaderHeight() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--header-height', `${el.offsetHeight}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-height');
    };
  }, []);
  return ref;
}

/**
 * Header, top navigation and page area shared by every signed-in screen. The router renders one
 * AppShell above all signed-in routes, so it stays mounted while pages change and load (the
 * logo's double-click survives the navigation its first click makes).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { user, isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  const [location] = useLocation();
  const [profileOpen, setProfileOpen] = useState(false);
  const [adminOpen, setAdminOpen] = useState(false);
  const openAdminDashboard = useCallback(() => setAdminOpen(true), []);
  const headerRef = useHeaderHeight();
  // Live points, event and notification updates for every signed-in screen; notifications also
  // show as cards (a stable module function, so the connection is not remade on each render).
  useRealtime(receiveServerNotification);
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || '';
  const initials = (user?.firstName?.[0] ?? user?.email?.[0] ?? '?').toUpperCase() + (user?.lastName?.[0] ?? '').toUpperCase();

  return (
    <div className="min-h-screen bg-background">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-card focus:px-4 focus:py-3 focus:font-semibold focus:shadow-lg"
      >
        Skip to content
      </a>
      <header ref={headerRef} className="sticky top-0 z-40 border-b border-border bg-card/95 backdrop-blur">
        {/* One row from md up; below it the search takes a row of its own under the logo bar. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2">
          <Link
            href="/"
            className="flex min-h-11 shrink-0 items-center gap-2 text-lg font-bold text-primary"
            onDoubleClick={(e) => {
              if (!isAdmin) return;
              e.preventDefault();
              setAdminOpen(true);
            }}
          >
            <img src="/favicon.svg" alt="" className="h-8 w-8" />
            {/* Out of sight on a phone, but still the link's name. */}
            <span className="sr-only sm:not-sr-only">Townbeat</span>
          </Link>
          <div className="order-last basis-full md:order-none md:max-w-2xl md:flex-1 md:basis-auto">
            <SearchBox />
          </div>
          <div className="ml-auto flex shrink-0 items-center gap-2">
            {isAdmin && <InterfaceModeControl />}
            <NotificationBell />
            <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-accent-soft px-3 py-1 text-sm font-semibold text-accent" aria-label={`${user?.points ?? 0} points`}>
              <Star className="h-4 w-4" aria-hidden />
              <span data-testid="points-chip">{user?.points ?? 0}</span>
            </span>
            <Menu.Root>
              {/* The initials are the visible name, so the accessible name carries them too. */}
              <Menu.Trigger aria-label={initials ? `Account menu, ${initials}` : 'Account menu'} className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground">
                {user?.profileImageUrl ? <img src={user.profileImageUrl} alt="" className="h-11 w-11 rounded-full object-cover" /> : initials || <UserRound className="h-5 w-5" aria-hidden />}
              </Menu.Trigger>
              <Menu.Portal>
                <Menu.Content align="end" sideOffset={6} className="z-50 min-w-48 rounded-lg border border-border bg-card p-1 shadow-lg">
                  <Menu.Label className="px-3 py-2 text-xs text-muted-foreground">{name}</Menu.Label>
                  <Menu.Item onSelect={() => setProfileOpen(true)} className="cursor-pointer rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-muted">
                    My Profile
                  </Menu.Item>
                  <Menu.Item onSelect={() => setAdminOpen(true)} className="cursor-pointer rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-muted">
                    My Events
                  </Menu.Item>
                  <Menu.Separator className="my-1 h-px bg-border" />
                  <Menu.Item
                    onSelect={() => {
                      clearDrafts();
                      window.location.href = '/api/logout';
                    }}
                    className="cursor-pointer rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-muted"
                  >
                    Logout
                  </Menu.Item>
                </Menu.Content>
              </Menu.Portal>
            </Menu.Root>
          </div>
        </div>
        <MainNav links={visibleNavLinks(isAdmin, mode)} location={location} />
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 pb-10 pt-6 focus:outline-none">
        <OpenAdminDashboardContext.Provider value={isAdmin ? openAdminDashboard : null}>{children}</OpenAdminDashboardContext.Provider>
      </main>
      <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
      <AdminOverlay open={adminOpen} onOpenChange={setAdminOpen} />
      <NotificationCenter />
    </div>
  );
}

/**
 * The shell as the router loads it, lazily once someone is signed in: with the tooltip timing
 * every signed-in screen shares (so Radix Tooltip stays out of the landing page's bundle).
 */
export default function SignedInShell({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider>
      <AppShell>{children}</AppShell>
    </TooltipProvider>
  );
}
