import { MessageCircle } from 'lucide-react';
import { formatPoints, relativeTime, useNow } from './gaming-format.ts';
import { useActivities } from './gaming.queries.ts';

/** Spec section 9: Community Buzz shows the 3 latest activities. */
export const BUZZ_LIMIT = 3;

/** Community Buzz (spec section 2): the latest activities with their points, updated live. */
export function CommunityBuzz() {
  const { data, isPending, isError } = useActivities();
  const now = useNow();
  const latest = (data ?? []).slice(0, BUZZ_LIMIT);

  return (
    <section aria-labelledby="community-buzz-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="community-buzz-heading" className="flex items-center gap-2 text-base font-bold">
        <MessageCircle className="h-5 w-5 text-primary" aria-hidden />
        Community Buzz
      </h2>
      {isPending ? (
        <ul className="mt-3 space-y-2" aria-hidden>
          {Array.from({ length: BUZZ_LIMIT }, (_, i) => (
            <li key={i} className="h-10 animate-pulse rounded-md bg-muted" />
          ))}
        </ul>
      ) : isError && !data ? (
        <p className="mt-3 text-sm text-muted-foreground">Activity could not be loaded.</p>
      ) : latest.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">No activity yet. Save an event to get things going.</p>
      ) : (
        <ul className="mt-3 divide-y divide-border" data-testid="community-buzz">
          {latest.map((a) => (
            <li key={a.id} className="flex items-start justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="text-sm leading-snug">{a.description}</p>
                <p className="text-xs text-muted-foreground">
                  <time dateTime={a.createdAt}>{relativeTime(a.createdAt, now)}</time>
                </p>
              </div>
              {a.pointsEarned !== 0 && (
                <span className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-bold text-accent">
                  {a.pointsEarned > 0 ? '+' : ''}
                  {formatPoints(a.pointsEarned)}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
