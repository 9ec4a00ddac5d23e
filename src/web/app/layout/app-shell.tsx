import * as Menu from '@radix-ui/react-dropdown-menu';
import { Search, Star, UserRound } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useAuth } from '../../features/auth/auth.queries.ts';
import { ProfileDialog } from '../../features/shell/profile-dialog.tsx';
import { AdminOverlay } from '../../features/admin/admin-overlay.tsx';
import { NotificationBell, NotificationCenter, receiveServerNotification } from '../../features/gaming/notifications.tsx';
import { useRealtime } from '../../lib/use-realtime.ts';

export const NAV_LINKS = [
  { href: '/', label: 'Discover' },
  { href: '/map', label: 'Quest Map' },
  { href: '/vendors', label: 'Vendors' },
  { href: '/shop', label: 'Shop' },
  { href: '/stories', label: 'Stories' },
  { href: '/memory-forge', label: 'Memory Forge' },
  { href: '/qr-scanner', label: 'QR Scanner' },
  { href: '/ar-discovery', label: 'AR Discovery' },
  { href: '/admin', label: 'Admin' },
] as const;

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
    <div className="relative min-w-0 flex-1 md:max-w-md">
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

/** Header, top navigation and page area shared by every signed-in screen. */
export function AppShell({ children }: { children: ReactNode }) {
  const { user, isAdmin } = useAuth();
  const [location] = useLocation();
  const [profileOpen, setProfileOpen] = useState(false);
  const [adminOpen, setAdminOpen] = useState(false);
  // Live points, event and notification updates for every signed-in screen; notifications also
  // show as cards (a stable module function, so the connection is not remade on each render).
  useRealtime(receiveServerNotification);
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || '';
  const initials = (user?.firstName?.[0] ?? user?.email?.[0] ?? '?').toUpperCase() + (user?.lastName?.[0] ?? '').toUpperCase();

  return (
    <div className="min-h-screen bg-background">
      <header className="sticky top-0 z-40 border-b border-border bg-card/95 backdrop-blur">
        <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
          <Link
            href="/"
            className="flex shrink-0 items-center gap-2 text-lg font-bold text-primary"
            onDoubleClick={(e) => {
              if (!isAdmin) return;
              e.preventDefault();
              setAdminOpen(true);
            }}
          >
            <img src="/favicon.svg" alt="" className="h-8 w-8" />
            <span className="hidden sm:inline">Townbeat</span>
          </Link>
          <SearchBox />
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
        <nav aria-label="Main" className="mx-auto max-w-7xl overflow-x-auto px-2">
          <ul className="flex gap-1 whitespace-nowrap">
            {NAV_LINKS.map((l) => {
              const active = l.href === '/' ? DISCOVER_PATHS.has(location) : location.startsWith(l.href);
              return (
                <li key={l.href}>
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
        </nav>
      </header>
      {/* Bottom room so the admin's floating Interface Mode panel never covers the last controls. */}
      <main className={`mx-auto max-w-7xl px-4 pt-6 ${isAdmin ? 'pb-44' : 'pb-6'}`}>{children}</main>
      <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
      <AdminOverlay open={adminOpen} onOpenChange={setAdminOpen} />
      <NotificationCenter />
    </div>
  );
}
