import { ChevronRight, Medal } from 'lucide-react';
import { Link } from 'wouter';
import type { LeaderboardEntry } from '../../../contract/gaming.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { formatPoints } from './gaming-format.ts';
import { useLeaderboard } from './gaming.queries.ts';

/** Spec section 9: the Discover home shows the leaderboard's top 3. */
export const LEADERBOARD_TOP = 3;
const MEDALS = ['text-amber-500', 'text-slate-400', 'text-orange-700'];

export function RankBadge({ rank }: { rank: number }) {
  return (
    <span className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-bold" aria-label={`Rank ${rank}`}>
      {rank <= 3 ? <Medal className={`h-4 w-4 ${MEDALS[rank - 1]}`} aria-hidden /> : null}
      <span className={rank <= 3 ? 'sr-only' : ''}>{rank}</span>
    </span>
  );
}

export function isMe(entry: LeaderboardEntry, userId: string | undefined) {
  return userId !== undefined && entry.userId === userId;
}

/** The leaderboard's top 3 on the Discover home (polled every 60 s), with a link to the full board. */
export function LeaderboardTop() {
  const { user } = useAuth();
  const { data, isPending, isError } = useLeaderboard('all');
  const top = (data ?? []).slice(0, LEADERBOARD_TOP);

  return (
    <section aria-labelledby="leaderboard-top-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="leaderboard-top-heading" className="flex items-center gap-2 text-base font-bold">
        <Medal className="h-5 w-5 text-accent" aria-hidden />
        Leaderboard
      </h2>
      {isPending ? (
        <ol className="mt-3 space-y-2" aria-hidden>
          {Array.from({ length: LEADERBOARD_TOP }, (_, i) => (
            <li key={i} className="h-9 animate-pulse rounded-md bg-muted" />
          ))}
        </ol>
      ) : isError && !data ? (
        <p className="mt-3 text-sm text-muted-foreground">The leaderboard could not be loaded.</p>
      ) : top.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No one has earned points yet. Be the first!</p>
      ) : (
        <ol className="mt-3 space-y-1" data-testid="leaderboard-top">
          {top.map((e) => {
            const me = isMe(e, user?.id);
            return (
              <li key={e.userId} className={`flex items-center gap-3 rounded-md px-2 py-1.5 ${me ? 'bg-accent-soft font-semibold' : ''}`} aria-current={me ? 'true' : undefined}>
                <RankBadge rank={e.rank} />
                <span className="min-w-0 flex-1 truncate text-sm">
                  {e.displayName}
                  {me && <span className="ml-1 text-xs text-muted-foreground">(you)</span>}
                </span>
                <span className="text-sm font-bold text-accent">{formatPoints(e.points)}</span>
              </li>
            );
          })}
        </ol>
      )}
      <Link href="/leaderboard" className="mt-3 inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-primary hover:underline">
        See full leaderboard
        <ChevronRight className="h-4 w-4" aria-hidden />
      </Link>
    </section>
  );
}
