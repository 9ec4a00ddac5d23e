import { EyeOff, Sparkles, X } from 'lucide-react';
import { useState, type FocusEvent } from 'react';
import { Link } from 'wouter';
import type { EventSummary } from '../../../contract/events.ts';
import { EventImage } from '../events/event-card.tsx';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { FavoriteButton } from '../events/favorite-button.tsx';
import { recordView, useDismissRecommendation } from './recommendations.queries.ts';

/** How many recommendations the strip shows. */
export const STRIP_LIMIT = 8;

/** An event as the strip gets it; `reason` may be missing from an older server. */
export type StripEvent = EventSummary & { reason?: string };

// One fixed height for every state (loading, empty, error, cards): the strip sits above the list,
// so its height must never change once drawn, or the list would move under the pointer.
const STRIP_HEIGHT = 'h-[12.5rem]';
const CARD = 'w-60 shrink-0 rounded-lg border border-border bg-card shadow-sm';

function StripCard({ event, onDismiss, dismissing }: { event: StripEvent; onDismiss: () => void; dismissing: boolean }) {
  const { data: config } = useCityConfig();
  const when = formatEventWhen(event, config?.city.timeZone ?? event.timeZone, config?.city.locale);
  const reason = typeof event.reason === 'string' && event.reason.trim() ? event.reason : null;
  return (
    <article data-testid="recommended-card" className={`${CARD} relative flex h-full flex-col overflow-hidden`}>
      <div className="relative h-24 shrink-0">
        <EventImage event={event} className="h-full w-full" sizes="240px" />
        <div className="absolute inset-x-2 top-2 flex items-start justify-between">
          <button
            type="button"
            onClick={onDismiss}
            disabled={dismissing}
            aria-label={`Not interested in ${event.title}`}
            title="Not interested"
            className="relative z-10 inline-flex min-h-11 min-w-11 items-center justify-center rounded-full bg-card/90 shadow-sm backdrop-blur hover:bg-card disabled:opacity-50"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
          <FavoriteButton eventId={event.id} title={event.title} isFavorited={event.isFavorited} className="relative z-10" />
        </div>
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-1 p-3">
        <h3 className="line-clamp-1 text-sm font-semibold leading-snug">
          <Link
            href={`/events/${event.id}`}
            onClick={() => recordView(event.id, 'recommendation')}
            className="rounded outline-none after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:text-primary focus-visible:after:outline focus-visible:after:outline-2 focus-visible:after:outline-[var(--ring)]"
          >
            {event.title}
          </Link>
        </h3>
        {reason && (
          <p data-testid="recommendation-reason" className="line-clamp-1 text-xs font-medium text-accent">
            {reason}
          </p>
        )}
        <p className="line-clamp-1 text-xs text-muted-foreground">
          <time dateTime={event.startDate}>{when}</time>
          {event.neighbourhood ? ` · ${event.neighbourhood}` : ''}
        </p>
      </div>
    </article>
  );
}

/**
 * 'AI Recommended for You' (label Personalized) as a horizontal strip of fixed height, drawn from
 * the first render: loading, empty and filled take the same space, so the list below never moves.
 * While the pointer or focus is inside, the cards stay as they are (a save or a fresh ranking
 * applies when it leaves), so a second click lands where the person aimed.
 */
export function RecommendedStrip({ items, isPending, isError }: { items: StripEvent[] | null | undefined; isPending: boolean; isError: boolean }) {
  const dismiss = useDismissRecommendation();
  const live = (items ?? []).slice(0, STRIP_LIMIT);
  const [frozen, setFrozen] = useState<StripEvent[] | null>(null);
  const [hover, setHover] = useState(false);
  const [focus, setFocus] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const hold = () => setFrozen((f) => f ?? live);
  const release = (stillHover: boolean, stillFocus: boolean) => {
    if (!stillHover && !stillFocus) setFrozen(null);
  };
  const shown = frozen ?? live.filter((e) => !hidden.has(e.id));

  const onDismiss = (id: string) => {
    setHidden((h) => new Set(h).add(id));
    dismiss.mutate(id, { onError: () => setHidden((h) => new Set([...h].filter((x) => x !== id))) });
  };

  return (
    <section aria-labelledby="recommended-heading" className="mb-8" data-testid="recommended-section">
      <div className="mb-3 flex h-8 items-center gap-2">
        <h2 id="recommended-heading" className="flex items-center gap-2 text-xl font-bold">
          <Sparkles className="h-5 w-5 text-accent" aria-hidden />
          AI Recommended for You
        </h2>
        <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">Personalized</span>
      </div>
      <div
        data-testid="recommended-strip"
        className={STRIP_HEIGHT}
        onPointerEnter={() => {
          hold();
          setHover(true);
        }}
        onPointerLeave={() => {
          setHover(false);
          release(false, focus);
        }}
        onFocus={() => {
          hold();
          setFocus(true);
        }}
        onBlur={(e: FocusEvent<HTMLDivElement>) => {
          if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
          setFocus(false);
          release(hover, false);
        }}
      >
        {isPending ? (
          <div role="status" aria-label="Loading recommendations" className="flex h-full gap-3 overflow-hidden">
            {Array.from({ length: 4 }, (_, i) => (
              <div key={i} className={`${CARD} h-full animate-pulse bg-muted`} />
            ))}
          </div>
        ) : isError && !items ? (
          <p className="flex h-full items-center justify-center rounded-lg border border-dashed border-border bg-card px-4 text-center text-sm text-muted-foreground">
            Recommendations could not be loaded.
          </p>
        ) : shown.length === 0 ? (
          <p className="flex h-full items-center justify-center rounded-lg border border-dashed border-border bg-card px-4 text-center text-sm text-muted-foreground">
            Save a few events and we&rsquo;ll suggest more.
          </p>
        ) : (
          <ul className="flex h-full gap-3 overflow-x-auto overflow-y-hidden pb-1" aria-label="Recommended events">
            {shown.map((e) => (
              <li key={e.id} className="h-full">
                {hidden.has(e.id) ? (
                  <div className={`${CARD} flex h-full flex-col items-center justify-center gap-2 p-4 text-center text-sm text-muted-foreground`}>
                    <EyeOff className="h-5 w-5" aria-hidden />
                    <p>Hidden. We won&rsquo;t suggest {e.title} again.</p>
                  </div>
                ) : (
                  <StripCard event={e} onDismiss={() => onDismiss(e.id)} dismissing={dismiss.isPending && dismiss.variables === e.id} />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
