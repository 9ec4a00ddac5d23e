import { MessageCircle } from 'lucide-react';
import { Link } from 'wouter';
import type { BuzzItem } from '../../../contract/recommendations.ts';
import { useCommunityBuzz } from '../discover/recommendations.queries.ts';
import { relativeTime, useNow } from './gaming-format.ts';

/** Spec section 9: Community Buzz shows the 3 latest activities. */
export const BUZZ_LIMIT = 3;

function subjectHref(item: BuzzItem): string | null {
  if (item.eventId) return `/events/${item.eventId}`;
  // The stories page has no per-story address; the story is on it.
  if (item.storyId) return '/stories';
  return null;
}

/**
 * Community Buzz (spec section 2): the community's 3 latest public actions ("Sam L. saved Jazz
 * Night"), never the viewer's own; refetched when the live channel says something happened.
 */
export function CommunityBuzz() {
  const { data, isPending, isError } = useCommunityBuzz(BUZZ_LIMIT);
  const now = useNow();
  const latest = (data?.items ?? []).slice(0, BUZZ_LIMIT);

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
        <p className="mt-3 text-sm text-muted-foreground">Nothing from the community yet. Saves, check-ins and stories will show up here.</p>
      ) : (
        <ul className="mt-3 divide-y divide-border" data-testid="community-buzz">
          {latest.map((a) => {
            const href = subjectHref(a);
            return (
              <li key={a.id} className="py-2">
                <p className="text-sm leading-snug">
                  <span className="font-semibold">{a.actor}</span> {a.verb}{' '}
                  {href ? (
                    <Link href={href} className="font-medium text-primary underline-offset-2 hover:underline">
                      {a.subject}
                    </Link>
                  ) : (
                    <span className="font-medium">{a.subject}</span>
                  )}
                  {a.count > 1 && <span className="text-muted-foreground"> ({a.count} times)</span>}
                </p>
                <p className="text-xs text-muted-foreground">
                  <time dateTime={a.at}>{relativeTime(a.at, now)}</time>
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
