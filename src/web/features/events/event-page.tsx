import { ArchiveX, ArrowLeft, CalendarCheck, CalendarClock, CalendarDays, CalendarPlus, ExternalLink, Hourglass, MapPin, Share2, Ticket, Users } from 'lucide-react';
import { Link, useParams } from 'wouter';
import type { Neighbourhood } from '../../../contract/city.ts';
import { namesOf, priceLabel, sourcesDisagree, type EventDetail } from '../../../contract/events.ts';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { LoadFailure } from '../../components/ui/load-failure.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { CategoryChip, categoryStyle, EventImage, PriceNote } from './event-card.tsx';
import { formatEventEnd, formatEventWhen, useCityConfig, useEventDetail } from './events.queries.ts';
import { FavoriteButton } from './favorite-button.tsx';
import { CheckInQrButton } from '../admin/check-in-qr.tsx';
import { SplitEventButton } from '../admin/split-event.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { lastDiscover } from '../discover/last-discover.ts';
import { WhoIsHere } from '../vendors/who-is-here.tsx';
import { recordView } from '../discover/recommendations.queries.ts';

type Place = z.infer<typeof Neighbourhood>;

const MAP_W = 400;
const MAP_H = 260;
const MAP_PAD = 28;

/** Every upcoming date of a recurring event, each a link to that occurrence; this one marked. */
function SeriesDates({ event, timeZone, locale }: { event: EventDetail; timeZone: string; locale: string | undefined }) {
  const [expanded, setExpanded] = useState(false);
  const SHOWN = 8;
  const dates = expanded ? event.dates : event.dates.slice(0, SHOWN);
  return (
    <div className="mt-3" data-testid="series-dates">
      <p className="text-sm font-semibold">{`${event.dates.length} upcoming dates`}</p>
      <ul className="mt-1 flex flex-wrap gap-2">
        {dates.map((d) => {
          const label = formatEventWhen({ startDate: d.startDate, allDay: event.allDay }, timeZone, locale);
          return (
            <li key={d.id}>
              {d.id === event.id ? (
                <span aria-current="date" className="inline-flex min-h-11 items-center rounded-full bg-primary px-3 text-sm font-medium text-primary-foreground">
                  <time dateTime={d.startDate}>{label}</time>
                </span>
              ) : (
                <Link href={`/events/${d.id}`} className="inline-flex min-h-11 items-center rounded-full border border-border bg-card px-3 text-sm font-medium hover:border-primary hover:text-primary">
                  <time dateTime={d.startDate}>{label}</time>
                </Link>
              )}
            </li>
          );
        })}
      </ul>
      {event.dates.length > SHOWN && (
        <Button variant="ghost" className="mt-1" onClick={() => setExpanded((x) => !x)} aria-expanded={expanded}>
          {expanded ? 'Show fewer dates' : `Show all ${event.dates.length} dates`}
        </Button>
      )}
    </div>
  );
}

/** Projects places into the map box: equirectangular, longitude shrunk by cos(latitude), centred. */
export function projectPlaces(places: Place[], width = MAP_W, height = MAP_H, pad = MAP_PAD): { x: number; y: number }[] {
  if (places.length === 0) return [];
  const lats = places.map((p) => p.lat);
  const lngs = places.map((p) => p.lng);
  const [minLat, maxLat, minLng, maxLng] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
  const k = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLng - minLng) * k, 1e-6);
  const spanY = Math.max(maxLat - minLat, 1e-6);
  const scale = Math.min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY);
  const offX = (width - spanX * scale) / 2;
  const offY = (height - spanY * scale) / 2;
  return places.map((p) => ({ x: offX + (p.lng - minLng) * k * scale, y: offY + (maxLat - p.lat) * scale }));
}

/**
 * An offline map: the city's neighbourhood centres as small labelled dots and the venue as the
 * highlighted marker, drawn over a plain background (no tiles, no outside requests).
 */
export function MiniMap({ venue, neighbourhoods, color }: { venue: Place; neighbourhoods: Place[]; color: string }) {
  const points = projectPlaces([venue, ...neighbourhoods]);
  const [v, ...hoods] = points as [{ x: number; y: number }, ...{ x: number; y: number }[]];
  // Labels that would overlap one already placed are left out (the venue's is placed first).
  const placed: { x1: number; y1: number; x2: number; y2: number }[] = [];
  const fits = (x: number, y: number, text: string, size: number) => {
    const w = text.length * size * 0.55;
    const box = { x1: x, y1: y - size, x2: x + w, y2: y + 2 };
    if (box.x2 > MAP_W - 2) return false;
    if (placed.some((b) => box.x1 < b.x2 && box.x2 > b.x1 && box.y1 < b.y2 && box.y2 > b.y1)) return false;
    placed.push(box);
    return true;
  };
  const venueLabel = fits(v.x + 10, v.y + 4, venue.name, 12);
  return (
    <svg viewBox={`0 0 ${MAP_W} ${MAP_H}`} role="img" aria-labelledby="mini-map-title" className="h-auto w-full rounded-lg border border-border bg-muted" data-testid="mini-map">
      <title id="mini-map-title">{`Map: ${venue.name} among the city's neighbourhoods`}</title>
      <defs>
        <pattern id="mini-map-grid" width="20" height="20" patternUnits="userSpaceOnUse">
          <path d="M 20 0 L 0 0 0 20" fill="none" stroke="var(--border)" strokeWidth="1" />
        </pattern>
      </defs>
      <rect width={MAP_W} height={MAP_H} fill="url(#mini-map-grid)" />
      {hoods.map((p, i) => {
        const n = neighbourhoods[i]!;
        return (
          <g key={n.name} data-testid="map-neighbourhood">
            <circle cx={p.x} cy={p.y} r={3} fill="var(--muted-foreground)" opacity={0.7} />
            {fits(p.x + 5, p.y + 3, n.name, 9) && (
              <text x={p.x + 5} y={p.y + 3} fontSize={9} fill="var(--muted-foreground)">
                {n.name}
              </text>
            )}
          </g>
        );
      })}
      <g data-testid="map-venue">
        <circle cx={v.x} cy={v.y} r={14} fill={color} opacity={0.2} />
        <circle cx={v.x} cy={v.y} r={7} fill={color} stroke="var(--card)" strokeWidth={2.5} />
        {venueLabel && (
          <text x={v.x + 10} y={v.y + 4} fontSize={12} fontWeight={700} fill="var(--foreground)" stroke="var(--muted)" strokeWidth={3} paintOrder="stroke">
            {venue.name}
          </text>
        )}
      </g>
    </svg>
  );
}

function EventPageSkeleton() {
  return (
    <div role="status" aria-label="Loading event" className="animate-pulse">
      <div className="mb-4 h-5 w-36 rounded bg-muted" />
      <div className="aspect-video w-full rounded-lg bg-muted" />
      <div className="mt-6 h-9 w-3/4 rounded bg-muted" />
      <div className="mt-4 grid gap-2">
        <div className="h-5 w-1/2 rounded bg-muted" />
        <div className="h-5 w-2/5 rounded bg-muted" />
        <div className="h-5 w-1/4 rounded bg-muted" />
      </div>
      <div className="mt-6 h-24 w-full rounded bg-muted" />
    </div>
  );
}

/** The visitor's own time zone, as the browser says. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A zone's short name at a moment as people read it ('PST' in winter, 'PDT' in summer), else its id. */
function zoneName(timeZone: string, at: Date, locale: string | undefined): string {
  const part = new Intl.DateTimeFormat(locale ?? 'en-US', { timeZone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

const factLabel = 'flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground';

/** Back to the Discover list the visitor came from, its filters kept. */
function BackLink() {
  return (
    <Link href={lastDiscover()} className="mb-4 inline-flex min-h-11 items-center gap-2 text-sm font-medium text-primary hover:underline">
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Back to Discover
    </Link>
  );
}

async function shareEvent(title: string) {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return;
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      // Sharing refused or unsupported for this data: fall back to copying.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied', description: 'The event link is on your clipboard.' });
  } catch {
    toast({ title: 'Could not copy the link', description: url, variant: 'destructive' });
  }
}

/** One event, public (spec: reading events needs no sign-in): /events/:id. */
export default function EventPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { data: event, isPending, error, refetch, isFetching } = useEventDetail(id);
  const { data: config } = useCityConfig();
  const { isAdmin, user } = useAuth();
  const signedInId = user?.id;
  const eventId = event?.id;
  // An opened event page is a signal for the next ranking (the server throttles repeats).
  useEffect(() => {
    if (signedInId && eventId) recordView(eventId, 'page');
  }, [signedInId, eventId]);

  if (isPending) return <EventPageSkeleton />;
  if (error || !event) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <LoadFailure thing="Event" missing={missing} error={error} onRetry={() => void refetch()} retrying={isFetching} back={{ href: lastDiscover(), label: 'Back to Discover' }} />
    );
  }

  // The city's zone; the event carries the same zone, so the time is right before the config arrives.
  const tz = config?.city.timeZone ?? event.timeZone;
  const locale = config?.city.locale;
  // Its start alone: the end follows it (`until`), an all-day event's last day included.
  const when = formatEventWhen({ startDate: event.startDate, allDay: event.allDay }, tz, locale);
  // An end the source never gave (a default duration, for listing) is not shown as if it had.
  const until = event.endGiven ? formatEventEnd(event, tz, locale) : '';
  const elsewhere = browserTimeZone() !== tz;
  // Which sources call it off, and which still list it: people learn when sources disagree.
  const saidBy = (kind: 'cancelled' | 'postponed') => {
    const names = event.calledOffBy.filter((s) => s.kind === kind).map((s) => s.name);
    return names.length ? namesOf(names) : null;
  };
  const disagree = sourcesDisagree(event);
  const stillListed = event.stillListedBy.length
    ? `${namesOf(event.stillListedBy)} still ${event.stillListedBy.length === 1 ? 'lists' : 'list'} it: check with the organiser before you give up on it. `
    : '';
  const hasPosition = event.lat !== null && event.lng !== null;

  return (
    <article className="mx-auto max-w-4xl">
      <BackLink />
      <div className="relative aspect-video w-full overflow-hidden rounded-lg">
        <EventImage event={event} alt={event.title} className="h-full w-full" sizes="(min-width: 896px) 896px, 100vw" eager />
        <CategoryChip category={event.category} className="absolute left-3 top-3" />
      </div>

      <div className="mt-6 flex flex-wrap items-start justify-between gap-4">
        {/* At least 16rem: on a phone the actions wrap below the title instead of squeezing it into a sliver. */}
        <div className="min-w-0 grow basis-64">
          <h1 className="text-3xl font-bold leading-tight">{event.title}</h1>
          {event.isDemo && <p className="mt-1 text-xs font-medium text-muted-foreground">Demo content</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {/* Saving an ended event stays possible (to remember it), but it earns no points: the note below says so. */}
          <FavoriteButton eventId={event.id} title={event.title} isFavorited={event.isFavorited} outline />
          {!event.ended && (
            <a href={`/api/events/${encodeURIComponent(event.id)}/ics`} download className={buttonClass('outline')}>
              <CalendarPlus className="h-4 w-4" aria-hidden />
              Add to calendar
            </a>
          )}
          <Button variant="outline" onClick={() => void shareEvent(event.title)}>
            <Share2 className="h-4 w-4" aria-hidden />
            Share
          </Button>
          <CheckInQrButton eventId={event.id} title={event.title} />
          <SplitEventButton eventId={event.id} title={event.title} mergedRecords={event.mergedRecords} />
        </div>
      </div>

      {event.ended && (
        <div data-testid="event-ended" className="mt-4 flex items-start gap-3 rounded-lg border border-border bg-muted p-4">
          <CalendarCheck className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" aria-hidden />
          <div>
            <h2 className="font-semibold">This event has ended</h2>
            <p className="mt-1 text-sm">You can still save it to remember it in My Events, but saving an event that has ended earns no points.</p>
          </div>
        </div>
      )}

      {event.status !== 'approved' && !event.removedBySource && (isAdmin || event.status === 'pending') && (
        // Its contributor (or an admin) sees it before anyone else can: say so, so a shared link is not a surprise.
        <div data-testid="not-listed" className="mt-4 flex items-start gap-3 rounded-lg border border-accent/40 bg-accent-soft p-4">
          <Hourglass className="mt-0.5 h-5 w-5 shrink-0 text-accent" aria-hidden />
          <div>
            {event.status === 'pending' ? (
              <>
                <h2 className="font-semibold text-accent">Waiting for review</h2>
                <p className="mt-1 text-sm">This event is not listed yet: only whoever sent it and the admins can see this page until an admin approves it.</p>
              </>
            ) : (
              <>
                <h2 className="font-semibold text-accent">Not listed</h2>
                <p className="mt-1 text-sm">An admin turned this event down in review: only admins, and members who had saved it, can see this page.</p>
              </>
            )}
          </div>
        </div>
      )}

      {event.status === 'rejected' && !event.removedBySource && !isAdmin && (
        // A member reaches it only because they saved it before an admin took it down: say so, as for an event its sources dropped.
        <div data-testid="removed-from-townbeat" className="mt-4 flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4">
          <ArchiveX className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden />
          <div>
            <h2 className="font-semibold text-destructive">Removed from Townbeat</h2>
            <p className="mt-1 text-sm">An admin removed this event from Townbeat, so it is no longer listed. This page is kept for people who saved it.</p>
          </div>
        </div>
      )}

      {!event.removedBySource && disagree && (
        // A source whose record was merged into this one calls it off while the event's own still lists it.
        <div data-testid="sources-disagree" className="mt-4 flex items-start gap-3 rounded-lg border border-accent/40 bg-accent-soft p-4">
          <CalendarClock className="mt-0.5 h-5 w-5 shrink-0 text-accent" aria-hidden />
          <div>
            <h2 className="font-semibold text-accent">Sources disagree</h2>
            <p className="mt-1 text-sm">
              {disagree}, so it stays listed. Check with the organiser before you go.
            </p>
          </div>
        </div>
      )}

      {event.removedBySource && (
        <div data-testid="removed-by-source" className="mt-4 flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4">
          {event.postponedBySource && !event.cancelledBySource ? (
            <CalendarClock className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden />
          ) : (
            <ArchiveX className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden />
          )}
          <div>
            {event.cancelledBySource ? (
              <>
                <h2 className="font-semibold text-destructive">Cancelled</h2>
                <p className="mt-1 text-sm">
                  {saidBy('cancelled') ?? 'The source that listed this event'} says it is cancelled, so it is no longer listed. {stillListed}This page is kept for people who saved it.
                </p>
              </>
            ) : event.postponedBySource ? (
              <>
                <h2 className="font-semibold text-destructive">Postponed</h2>
                <p className="mt-1 text-sm">
                  {saidBy('postponed') ?? 'The source that listed this event'} says it is postponed and gives no new date yet, so it will not take place at the time shown and is no longer listed.{' '}
                  {stillListed}This page is kept for people who saved it.
                </p>
              </>
            ) : (
              <>
                <h2 className="font-semibold text-destructive">Removed by the source</h2>
                <p className="mt-1 text-sm">Every source that listed this event has dropped it, so it is no longer listed. This page is kept for people who saved it.</p>
              </>
            )}
          </div>
        </div>
      )}

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <dl className="grid gap-3 rounded-lg border border-border bg-card p-4">
            <div>
              <dt className={factLabel}>
                <CalendarDays className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                When
              </dt>
              <dd className="pl-7">
                <time dateTime={event.startDate}>{when}</time>
                {until && (
                  <>
                    {' – '}
                    <time dateTime={event.endDate}>{until}</time>
                  </>
                )}
                {config && elsewhere && (
                  // Times are the city's, whatever the visitor's clock says: said when the two differ.
                  <span className="block text-sm text-muted-foreground" data-testid="city-time">
                    {config.city.name} time ({zoneName(tz, new Date(event.startDate), locale)})
                  </span>
                )}
                {event.dates.length > 1 && <SeriesDates event={event} timeZone={tz} locale={locale} />}
              </dd>
            </div>
            <div>
              <dt className={factLabel}>
                <MapPin className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Where
              </dt>
              <dd className="pl-7">
                <span className="font-medium">{event.venue || 'Venue to be announced'}</span>
                {event.address && <span className="block text-sm text-muted-foreground">{event.address}</span>}
                {event.neighbourhood && <span className="block text-sm text-muted-foreground">{event.neighbourhood}</span>}
              </dd>
            </div>
            <div>
              <dt className={factLabel}>
                <Ticket className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Price
              </dt>
              <dd className="pl-7">
                <span className="font-semibold" data-testid="price-label">
                  {priceLabel(event)}
                </span>
                <PriceNote event={event} />
              </dd>
            </div>
            <div>
              <dt className={factLabel}>
                <Users className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                Attendees
              </dt>
              <dd className="pl-7">
                <span data-testid="attendee-count">
                  {event.attendeeCount.toLocaleString('en-US')} {event.attendeeCount === 1 ? 'attendee' : 'attendees'}
                </span>
                <span className="block text-sm text-muted-foreground">People who checked in, saved it here, or said they are going at the source.</span>
              </dd>
            </div>
            <div>
              <dt className={factLabel}>
                <span className="mx-1 h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: categoryStyle(event.category).color }} aria-hidden />
                Category
              </dt>
              <dd className="pl-7">{event.category}</dd>
            </div>
          </dl>

          <section aria-labelledby="about-heading" className="mt-6">
            <h2 id="about-heading" className="text-xl font-bold">
              About this event
            </h2>
            {event.description.trim() ? (
              <p className="mt-2 whitespace-pre-wrap break-words leading-relaxed" data-testid="event-description">
                {event.description}
              </p>
            ) : (
              <p className="mt-2 text-muted-foreground">No description was given for this event.</p>
            )}
          </section>

          <WhoIsHere eventId={event.id} />

          <section aria-labelledby="sources-heading" className="mt-6">
            <h2 id="sources-heading" className="text-xl font-bold">
              Sources
            </h2>
            {isAdmin && event.mergedRecords > 0 && (
              <p className="mt-1 text-sm text-muted-foreground" data-testid="merged-records">
                {event.mergedRecords === 1 ? '1 record from another source is' : `${event.mergedRecords} records from other sources are`} merged into this event.
              </p>
            )}
            {event.sources.length === 0 ? (
              <p className="mt-2 text-muted-foreground">Entered directly on Townbeat.</p>
            ) : (
              <ul className="mt-2 grid gap-2" data-testid="event-sources">
                {event.sources.map((s, i) => (
                  <li key={`${s.sourceType}-${s.url}-${i}`} className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-card px-3 py-2">
                    <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-semibold">{s.sourceType}</span>
                    {s.url && !event.isDemo ? (
                      <a href={s.url} target="_blank" rel="noopener noreferrer" className="inline-flex min-h-11 items-center gap-1 font-medium text-primary hover:underline">
                        {s.name || s.url}
                        <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                        <span className="sr-only">(opens in a new tab)</span>
                      </a>
                    ) : (
                      <span className="font-medium">{s.name || s.url}</span>
                    )}
                    {/* The demo city's feeds are written by us: their pages do not exist anywhere. */}
                    {event.isDemo && <span className="text-sm text-muted-foreground">demo content, no page of its own</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <aside aria-labelledby="location-heading">
          <h2 id="location-heading" className="mb-2 text-xl font-bold">
            Location
          </h2>
          {hasPosition && config ? (
            <MiniMap
              venue={{ name: event.venue || 'Venue', lat: event.lat!, lng: event.lng! }}
              neighbourhoods={config.city.neighbourhoods}
              color={categoryStyle(event.category).color}
            />
          ) : (
            <p className="rounded-lg border border-dashed border-border bg-card p-4 text-sm text-muted-foreground">
              {hasPosition ? 'Loading the map…' : 'No map position was given for this venue.'}
            </p>
          )}
          {event.address && <p className="mt-2 text-sm text-muted-foreground">{event.address}</p>}
        </aside>
      </div>
    </article>
  );
}
