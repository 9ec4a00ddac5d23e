import { ExternalLink, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { USER_ROLES, type AdminUser, type UserRole } from '../../../contract/admin.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { formatCityTime } from '../../lib/city-time.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { useAdminUsers, useUpdateUser, useUserActivities } from './admin-area.queries.ts';

export const USERS_PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;

const ROLE_LABELS: Record<UserRole, string> = { user: 'User', vendor: 'Vendor', admin: 'Admin' };
const fullName = (u: AdminUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '—';
/** 'Nov 28, 2026' on the city's clocks (a sign-up late in the evening is on the city's day). */
const shortDate = (iso: string | null, timeZone: string | undefined) => (iso ? formatCityTime(iso, timeZone, { month: 'short', day: 'numeric', year: 'numeric' }) : 'Never');

/** A change waiting for the admin's confirmation. */
type Pending = { user: AdminUser; role?: UserRole; disabled?: boolean };

function confirmText(p: Pending): { title: string; body: string; action: string } {
  if (p.disabled === true) return { title: 'Disable this account?', body: `${p.user.email} will be signed out everywhere at once and cannot sign in until enabled again.`, action: 'Disable' };
  if (p.disabled === false) return { title: 'Enable this account?', body: `${p.user.email} will be able to sign in again.`, action: 'Enable' };
  return { title: 'Change role?', body: `${p.user.email} goes from ${ROLE_LABELS[p.user.role]} to ${ROLE_LABELS[p.role!]}.`, action: 'Change role' };
}

/** Users: a searchable, paged table with role changes and account disabling, each confirmed. */
export function AdminUsers() {
  const { user: me } = useAuth();
  const timeZone = useCityTimeZone();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);
  const searchId = useId();
  const users = useAdminUsers({ search, limit: USERS_PAGE_SIZE, offset });
  const update = useUpdateUser();

  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(input.trim());
      setOffset(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [input]);

  const total = users.data?.total ?? 0;
  const list = users.data?.users ?? [];
  const confirm = pending ? confirmText(pending) : null;

  return (
    <div className="space-y-8">
      <section aria-labelledby="users-heading">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="users-heading" className="text-lg font-semibold">
            Users
          </h2>
          <div className="relative w-full sm:w-72">
            <label htmlFor={searchId} className="sr-only">
              Search users
            </label>
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <input
              id={searchId}
              type="search"
              value={input}
              onChange={(e) => setInput(e.target.value)}
              placeholder="Search by name or email"
              className="min-h-11 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
            />
          </div>
        </div>

        {users.isPending ? (
          <InlineLoading label="Loading users…" />
        ) : users.isError ? (
          <p role="alert" className="py-4 text-destructive">
            Could not load users.
          </p>
        ) : list.length === 0 ? (
          <p className="py-6 text-muted-foreground">{search ? `No users match “${search}”.` : 'No users yet.'}</p>
        ) : (
          <div className="mt-4 overflow-x-auto rounded-lg border border-border bg-card">
            <table className="w-full min-w-[720px] text-left text-sm">
              <caption className="sr-only">Users, newest first</caption>
              <thead className="bg-muted text-xs uppercase text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2">Name</th>
                  <th scope="col" className="px-3 py-2">Email</th>
                  <th scope="col" className="px-3 py-2">Role</th>
                  <th scope="col" className="px-3 py-2 text-right">Points</th>
                  <th scope="col" className="px-3 py-2">Joined</th>
                  <th scope="col" className="px-3 py-2">Last active</th>
                  <th scope="col" className="px-3 py-2">Account</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {list.map((u) => {
                  const self = u.id === me?.id;
                  return (
                    <tr key={u.id} data-testid="admin-user-row">
                      <td className="px-3 py-2 font-medium">{fullName(u)}</td>
                      <td className="px-3 py-2">{u.email}</td>
                      <td className="px-3 py-2">
                        <label className="sr-only" htmlFor={`role-${u.id}`}>
                          Role of {u.email}
                        </label>
                        <select
                          id={`role-${u.id}`}
                          value={u.role}
                          disabled={update.isPending}
                          onChange={(e) => setPending({ user: u, role: e.target.value as UserRole })}
                          className="min-h-11 rounded-lg border border-border bg-card px-2"
                        >
                          {USER_ROLES.map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{u.points.toLocaleString('en-US')}</td>
                      <td className="px-3 py-2">{shortDate(u.createdAt, timeZone)}</td>
                      <td className="px-3 py-2">{shortDate(u.lastActiveAt, timeZone)}</td>
                      <td className="px-3 py-2">
                        {u.disabled ? (
                          <Button variant="outline" disabled={update.isPending} onClick={() => setPending({ user: u, disabled: false })} aria-label={`Enable ${u.email}`}>
                            Enable
                          </Button>
                        ) : (
                          <Button
                            variant="outline"
                            disabled={update.isPending || self}
                            title={self ? 'You cannot disable your own account' : undefined}
                            onClick={() => setPending({ user: u, disabled: true })}
                            aria-label={`Disable ${u.email}`}
                          >
                            Disable
                          </Button>
                        )}
                        {u.disabled && <span className="ml-2 rounded-full bg-destructive/10 px-2 py-0.5 text-xs font-semibold text-destructive">Disabled</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}

        {total > 0 && (
          <nav aria-label="Users pages" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
            <p aria-live="polite" className="text-muted-foreground">
              Showing {offset + 1}–{Math.min(offset + USERS_PAGE_SIZE, total)} of {total}
            </p>
            <div className="flex gap-2">
              <Button variant="outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - USERS_PAGE_SIZE))}>
                Previous
              </Button>
              <Button variant="outline" disabled={offset + USERS_PAGE_SIZE >= total} onClick={() => setOffset(offset + USERS_PAGE_SIZE)}>
                Next
              </Button>
            </div>
          </nav>
        )}
      </section>

      <RecentUserActivities />

      {pending && confirm && (
        <Dialog open onOpenChange={(open) => !open && setPending(null)} title={confirm.title} description={confirm.body}>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button
              variant={pending.disabled ? 'destructive' : 'primary'}
              disabled={update.isPending}
              onClick={() => {
                const patch = pending.role !== undefined ? { role: pending.role } : { disabled: pending.disabled! };
                update.mutate({ user: pending.user, patch }, { onSettled: () => setPending(null) });
              }}
            >
              {confirm.action}
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/** The latest ledger entries across users, and the raw endpoint (spec: opened in a new window). */
function RecentUserActivities() {
  const activities = useUserActivities(10);
  const timeZone = useCityTimeZone();
  return (
    <section aria-labelledby="user-activities-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="user-activities-heading" className="text-lg font-semibold">
          Recent user activity
        </h2>
        <a href="/api/admin/user-activities" target="_blank" rel="noopener" className={buttonClass('ghost')}>
          Raw JSON
          <ExternalLink className="h-4 w-4" aria-hidden />
          <span className="sr-only">(opens in a new window)</span>
        </a>
      </div>
      {activities.isPending ? (
        <InlineLoading label="Loading activity…" />
      ) : activities.isError ? (
        <p role="alert" className="py-4 text-destructive">
          Could not load user activity.
        </p>
      ) : activities.data.activities.length === 0 ? (
        <p className="py-4 text-muted-foreground">No activity yet</p>
      ) : (
        <ul className="mt-2 divide-y divide-border rounded-lg border border-border bg-card">
          {activities.data.activities.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium">{a.email}</span> <span className="text-muted-foreground">{a.description || a.activityType}</span>
              </span>
              <span className="flex items-center gap-2">
                <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">{a.pointsEarned >= 0 ? `+${a.pointsEarned}` : a.pointsEarned}</span>
                <time dateTime={a.createdAt} className="text-xs text-muted-foreground">
                  {formatCityTime(a.createdAt, timeZone, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
