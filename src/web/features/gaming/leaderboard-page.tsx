import * as Switch from '@radix-ui/react-switch';
import { RefreshCw } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { formatPoints } from './gaming-format.ts';
import { useLeaderboard, useProfileSettings, useUpdateProfile, type LeaderboardPeriod } from './gaming.queries.ts';
import { isMe, RankBadge } from './leaderboard-top.tsx';

const TABS: { id: LeaderboardPeriod; label: string }[] = [
  { id: 'all', label: 'All time' },
  { id: 'week', label: 'This week' },
];

function HideMeToggle() {
  const settings = useProfileSettings();
  const update = useUpdateProfile();
  const id = useId();
  const checked = update.isPending ? Boolean(update.variables?.leaderboardOptOut) : Boolean(settings.data?.leaderboardOptOut);
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-border bg-card p-3">
      <div className="flex items-center gap-3">
        <Switch.Root
          id={id}
          checked={checked}
          disabled={!settings.data || update.isPending}
          onCheckedChange={(v) => update.mutate({ leaderboardOptOut: v })}
          aria-describedby={`${id}-hint`}
          className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-muted outline-none transition-colors duration-150 data-[state=checked]:bg-primary disabled:opacity-50"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-card shadow transition-transform duration-150 data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
        <label htmlFor={id} className="text-sm font-medium">
          Hide me from the leaderboard
        </label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        Others see you as &lsquo;Anonymous&rsquo;; you still earn points and see your own rank.
      </p>
      {update.isError && (
        <p role="alert" className="text-xs text-destructive">
          Your choice could not be saved. Please try again.
        </p>
      )}
    </div>
  );
}

function Board({ period }: { period: LeaderboardPeriod }) {
  const { user } = useAuth();
  const { data, isPending, isError, refetch, isFetching } = useLeaderboard(period);
  if (isPending) {
    return (
      <div role="status" aria-label="Loading the leaderboard" className="space-y-2">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="h-11 animate-pulse rounded-md bg-muted" />
        ))}
      </div>
    );
  }
  if (isError && !data) {
    return (
      <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-6 text-center">
        <p className="font-semibold">The leaderboard could not be loaded</p>
        <Button variant="outline" className="mt-3" onClick={() => void refetch()} disabled={isFetching}>
          <RefreshCw className={`h-4 w-4 ${isFetching ? 'animate-spin' : ''}`} aria-hidden />
          Try again
        </Button>
      </div>
    );
  }
  if (!data || data.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border bg-card p-6 text-center text-muted-foreground">
        {period === 'week' ? 'No one has earned points this week yet.' : 'No one has earned points yet.'}
      </p>
    );
  }
  return (
    <table className="w-full border-collapse overflow-hidden rounded-lg bg-card text-sm shadow-sm">
      <caption className="sr-only">{period === 'week' ? 'Points earned this week' : 'Points of all time'}</caption>
      <thead>
        <tr className="border-b border-border text-left text-muted-foreground">
          <th scope="col" className="w-20 px-3 py-2 font-semibold">
            Rank
          </th>
          <th scope="col" className="px-3 py-2 font-semibold">
            Name
          </th>
          <th scope="col" className="px-3 py-2 text-right font-semibold">
            Points
          </th>
        </tr>
      </thead>
      <tbody>
        {data.map((e) => {
          const me = isMe(e, user?.id);
          return (
            <tr key={e.userId} className={`border-b border-border last:border-0 ${me ? 'bg-accent-soft font-semibold' : ''}`} aria-current={me ? 'true' : undefined} data-testid={me ? 'leaderboard-me' : undefined}>
              <td className="px-3 py-2">
                <RankBadge rank={e.rank} />
              </td>
              <td className="px-3 py-2">
                {e.displayName}
                {me && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
              </td>
              <td className="px-3 py-2 text-right font-bold text-accent">{formatPoints(e.points)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** /leaderboard: the full board, all time or this week, with the opt-out switch. */
export default function LeaderboardPage() {
  const [period, setPeriod] = useState<LeaderboardPeriod>('all');
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const last = TABS.length - 1;
    const to = e.key === 'ArrowRight' ? (i === last ? 0 : i + 1) : e.key === 'ArrowLeft' ? (i === 0 ? last : i - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? last : null;
    if (to === null) return;
    e.preventDefault();
    setPeriod(TABS[to]!.id);
    tabs.current[to]?.focus();
  };

  return (
    <section aria-labelledby="leaderboard-heading" className="mx-auto max-w-3xl">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <h1 id="leaderboard-heading" className="text-3xl font-bold">
          Leaderboard
        </h1>
        <HideMeToggle />
      </div>
      <div role="tablist" aria-label="Period" className="mb-4 inline-flex rounded-lg border border-border bg-card p-0.5">
        {TABS.map((t, i) => {
          const selected = t.id === period;
          return (
            <button
              key={t.id}
              ref={(el) => {
                tabs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${t.id}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setPeriod(t.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              className={`inline-flex min-h-11 items-center rounded-md px-4 text-sm font-semibold transition-colors duration-150 ${selected ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${period}`}>
        <Board key={period} period={period} />
      </div>
    </section>
  );
}
