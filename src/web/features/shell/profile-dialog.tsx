import { Award, CalendarCheck, Compass, Flame, HandHeart, Landmark, MessageSquareHeart, Repeat, Search, Star, type LucideIcon } from 'lucide-react';
import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';
import { BADGES, BADGE_TYPES, type BadgeResponse, type BadgeType } from '../../../contract/gaming.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Tooltip } from '../../components/ui/tooltip.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { formatPoints, relativeTime, useNow } from '../gaming/gaming-format.ts';
import { useActivities, useProfileSettings, useUpdateProfile, useUserBadges, useUserStats } from '../gaming/gaming.queries.ts';

/** Spec section 9: the profile shows up to 6 badges. */
export const PROFILE_BADGE_LIMIT = 6;
/** How many recent activities the profile lists. */
export const PROFILE_ACTIVITY_LIMIT = 5;

const BADGE_ICONS: Record<BadgeType, LucideIcon> = {
  tier_explorer: Compass,
  tier_champion: Award,
  tier_local_legend: Star,
  explorer: Search,
  social: MessageSquareHeart,
  regular: Repeat,
  cultural: Landmark,
};

/** The newest badges first, at most PROFILE_BADGE_LIMIT. */
export function profileBadges(badges: readonly BadgeResponse[]): BadgeResponse[] {
  return [...badges].sort((a, b) => new Date(b.earnedAt).getTime() - new Date(a.earnedAt).getTime()).slice(0, PROFILE_BADGE_LIMIT);
}

function StatTile({ label, value, icon: Icon }: { label: string; value: number | undefined; icon: LucideIcon }) {
  // The label reads after the number on screen, but comes first for assistive technology.
  return (
    <div className="flex flex-col-reverse items-center rounded-lg bg-muted p-3 text-center">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="flex flex-col items-center">
        <Icon className="h-5 w-5 text-primary" aria-hidden />
        <span className="mt-1 text-xl font-bold">
          {value === undefined ? (
            <>
              <span className="inline-block h-6 w-8 animate-pulse rounded bg-border align-middle" aria-hidden />
              <span className="sr-only">Loading</span>
            </>
          ) : (
            value
          )}
        </span>
      </dd>
    </div>
  );
}

/** The Community Buzz opt-out: on by default; off keeps my saves, check-ins and stories out of other people's Buzz. */
function BuzzVisibilityToggle({ enabled }: { enabled: boolean }) {
  const settings = useProfileSettings({ enabled });
  const update = useUpdateProfile();
  const id = useId();
  const optOut = update.isPending && update.variables?.buzzOptOut !== undefined ? update.variables.buzzOptOut : Boolean(settings.data?.buzzOptOut);
  return (
    <div className="mt-5 flex flex-col gap-1 rounded-lg border border-border p-3">
      <div className="flex min-h-11 items-center gap-3">
        <Switch.Root
          id={id}
          checked={!optOut}
          disabled={!settings.data || update.isPending}
          onCheckedChange={(show) => update.mutate({ buzzOptOut: !show })}
          aria-describedby={`${id}-hint`}
          className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-muted outline-none transition-colors duration-150 data-[state=checked]:bg-primary disabled:opacity-50"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-card shadow transition-transform duration-150 data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
        <label htmlFor={id} className="text-sm font-medium">
          Show my activity in Community Buzz
        </label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        Others see your saves, check-ins, stories and flyer scans with your first name and initial.
      </p>
      {update.isError && (
        <p role="alert" className="text-xs text-destructive">
          Your choice could not be saved. Please try again.
        </p>
      )}
    </div>
  );
}

/** 'Your Community Profile' (spec section 2): who you are, points, badges, stats and recent activity. */
export function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { user } = useAuth();
  const enabled = open && Boolean(user);
  const stats = useUserStats({ enabled });
  const badges = useUserBadges({ enabled });
  const activities = useActivities({ enabled });
  const now = useNow();
  if (!user) return null;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const shown = badges.data ? profileBadges(badges.data) : [];
  const recent = (activities.data ?? []).slice(0, PROFILE_ACTIVITY_LIMIT);

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Your Community Profile">
      <div className="flex items-center gap-4">
        <div className="flex h-16 w-16 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-2xl font-bold text-primary-foreground">
          {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" className="h-full w-full object-cover" /> : (user.firstName?.[0] ?? user.email[0] ?? '?').toUpperCase()}
        </div>
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold">{fullName || user.email}</p>
          <p className="text-sm text-muted-foreground">Event Explorer</p>
        </div>
      </div>

      <div className="mt-4 rounded-lg bg-accent-soft p-4">
        <p className="text-sm text-muted-foreground">Discovery Points</p>
        <p className="text-3xl font-bold text-accent" data-testid="profile-points">
          {formatPoints(user.points)}
        </p>
      </div>

      <section aria-labelledby="profile-badges-heading" className="mt-5">
        <h3 id="profile-badges-heading" className="mb-2 text-sm font-semibold">
          Achievement Badges
        </h3>
        {badges.isPending && enabled ? (
          <div className="grid grid-cols-3 gap-2" aria-hidden>
            {Array.from({ length: 3 }, (_, i) => (
              <div key={i} className="h-20 animate-pulse rounded-lg bg-muted" />
            ))}
          </div>
        ) : badges.isError && !badges.data ? (
          <p className="text-sm text-muted-foreground">Badges could not be loaded.</p>
        ) : shown.length === 0 ? (
          <p className="text-sm text-muted-foreground">No badges earned yet</p>
        ) : (
          <ul className="grid grid-cols-3 gap-2" data-testid="profile-badges">
            {shown.map((b) => {
              const Icon = BADGE_ICONS[b.badgeType] ?? Award;
              return (
                <li key={b.id}>
                  <Tooltip content={b.rule}>
                    <span
                      tabIndex={0}
                      className="flex min-h-20 flex-col items-center justify-center gap-1 rounded-lg border border-border bg-card p-2 text-center"
                      data-badge-type={b.badgeType}
                    >
                      <Icon className="h-6 w-6 text-accent" aria-hidden />
                      <span className="text-xs font-semibold leading-tight">{b.title}</span>
                      <span className="sr-only">: {b.rule}</span>
                    </span>
                  </Tooltip>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section aria-labelledby="profile-stats-heading" className="mt-5">
        <h3 id="profile-stats-heading" className="sr-only">
          Your stats
        </h3>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <StatTile label="Events Attended" value={stats.data?.eventsAttended ?? (stats.isError ? 0 : undefined)} icon={CalendarCheck} />
          <StatTile label="Events Discovered" value={stats.data?.eventsDiscovered ?? (stats.isError ? 0 : undefined)} icon={Compass} />
          <StatTile label="Contributions" value={stats.data?.contributionsCount ?? (stats.isError ? 0 : undefined)} icon={HandHeart} />
          <StatTile label="Day Streak" value={stats.data?.streak ?? (stats.isError ? 0 : undefined)} icon={Flame} />
        </dl>
      </section>

      <section aria-labelledby="profile-activity-heading" className="mt-5">
        <h3 id="profile-activity-heading" className="mb-2 text-sm font-semibold">
          Recent Activity
        </h3>
        {activities.isPending && enabled ? (
          <div className="space-y-2" aria-hidden>
            <div className="h-10 animate-pulse rounded-md bg-muted" />
            <div className="h-10 animate-pulse rounded-md bg-muted" />
          </div>
        ) : recent.length === 0 ? (
          <p className="text-sm text-muted-foreground">No activity yet</p>
        ) : (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="profile-activity">
            {recent.map((a) => (
              <li key={a.id} className="flex items-start justify-between gap-3 px-3 py-2">
                <div className="min-w-0">
                  <p className="text-sm">{a.description}</p>
                  <p className="text-xs text-muted-foreground">
                    <time dateTime={a.createdAt}>{relativeTime(a.createdAt, now)}</time>
                  </p>
                </div>
                {a.pointsEarned !== 0 && <span className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-bold text-accent">+{a.pointsEarned}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <BuzzVisibilityToggle enabled={enabled} />

      <details className="mt-5 rounded-lg border border-border p-3">
        <summary className="cursor-pointer text-sm font-semibold">How badges are earned</summary>
        <ul className="mt-2 space-y-1 text-sm" data-testid="badge-rules">
          {BADGE_TYPES.map((t) => (
            <li key={t} className="flex gap-2">
              <span className="font-semibold">{BADGES[t].title}:</span>
              <span className="text-muted-foreground">{BADGES[t].rule}</span>
            </li>
          ))}
        </ul>
      </details>
    </Dialog>
  );
}
