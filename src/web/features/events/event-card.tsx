import {
  Briefcase,
  CalendarDays,
  Cpu,
  Leaf,
  MapPin,
  Music,
  Palette,
  Radio,
  Ticket,
  Trophy,
  Users,
  UtensilsCrossed,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { priceLabel, type EventSummary } from '../../../contract/events.ts';
import { formatEventWhen, useCityConfig } from './events.queries.ts';
import { FavoriteButton } from './favorite-button.tsx';

const CATEGORY_STYLE: Record<string, { color: string; icon: LucideIcon }> = {
  Music: { color: 'var(--cat-music)', icon: Music },
  Food: { color: 'var(--cat-food)', icon: UtensilsCrossed },
  Business: { color: 'var(--cat-business)', icon: Briefcase },
  Sports: { color: 'var(--cat-sports)', icon: Trophy },
  Arts: { color: 'var(--cat-arts)', icon: Palette },
  Tech: { color: 'var(--cat-tech)', icon: Cpu },
  Wellness: { color: 'var(--cat-wellness)', icon: Leaf },
};
const OTHER = { color: 'var(--cat-other)', icon: CalendarDays };

/** The category's colour (a CSS variable) and icon; unknown categories are 'Other' grey. */
export function categoryStyle(category: string) {
  return CATEGORY_STYLE[category] ?? OTHER;
}

/** A generated, category-coloured picture for events without a usable image. */
export function CategoryPattern({ category, className = '' }: { category: string; className?: string }) {
  const { color, icon: Icon } = categoryStyle(category);
  return (
    <div
      data-testid="category-pattern"
      aria-hidden
      className={`flex items-center justify-center ${className}`}
      style={{
        backgroundColor: color,
        backgroundImage: [
          'radial-gradient(circle at 18% 28%, rgb(255 255 255 / 0.28) 0 14%, transparent 15%)',
          'radial-gradient(circle at 82% 78%, rgb(0 0 0 / 0.18) 0 20%, transparent 21%)',
          'repeating-linear-gradient(135deg, rgb(255 255 255 / 0.10) 0 10px, transparent 10px 22px)',
          'linear-gradient(160deg, rgb(255 255 255 / 0.18), rgb(0 0 0 / 0.22))',
        ].join(', '),
      }}
    >
      <Icon className="h-10 w-10 text-white/90 drop-shadow" aria-hidden />
    </div>
  );
}

/** The event's picture, or the pattern when there is none or it fails to load: never a broken image. */
export function EventImage({
  event,
  className = '',
  alt = '',
  sizes = '(min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw',
  eager = false,
}: {
  event: Pick<EventSummary, 'imageUrl' | 'imageSrcset' | 'category'>;
  className?: string;
  alt?: string;
  /** How wide the picture shows, so the browser picks the smallest copy that is sharp enough. */
  sizes?: string;
  eager?: boolean;
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = event.imageUrl;
  if (!url || failedUrl === url) return <CategoryPattern category={event.category} className={className} />;
  return (
    <img
      src={url}
      srcSet={event.imageSrcset ?? undefined}
      sizes={event.imageSrcset ? sizes : undefined}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setFailedUrl(url)}
      className={`object-cover ${className}`}
    />
  );
}

/** '+1 more date', '+5 more dates': the later occurrences of a recurring event. */
export function moreDatesLabel(n: number) {
  return `+${n.toLocaleString('en-US')} more ${n === 1 ? 'date' : 'dates'}`;
}

/** The category chip: a coloured dot and the name, readable over any image. */
export function CategoryChip({ category, className = '' }: { category: string; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full bg-card/95 px-2.5 py-1 text-xs font-semibold text-foreground shadow-sm ${className}`}>
      <span className="h-2 w-2 rounded-full" style={{ backgroundColor: categoryStyle(category).color }} aria-hidden />
      {category}
    </span>
  );
}

/** The source's words about the price ('at the door'), when the label does not already say them. */
export function PriceNote({ event }: { event: Pick<EventSummary, 'priceNote' | 'price' | 'isFree'> }) {
  if (!event.priceNote || (event.price === null && !event.isFree)) return null;
  return <span className="text-muted-foreground"> · {event.priceNote}</span>;
}

function attendeesLabel(n: number) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'attendee' : 'attendees'}`;
}

function EventFacts({ event, compact }: { event: EventSummary; compact?: boolean }) {
  const { data: config } = useCityConfig();
  const when = formatEventWhen(event, config?.city.timeZone ?? event.timeZone, config?.city.locale);
  const where = [event.venue, event.neighbourhood].filter(Boolean).join(' · ');
  const unit = config?.city.distanceUnit ?? 'mi';
  const row = compact ? 'basis-full sm:basis-[calc(50%-0.5rem)]' : 'basis-full';
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
      <div className={`flex min-w-0 items-center gap-2 ${row}`}>
        <dt className="sr-only">When</dt>
        <CalendarDays className="h-4 w-4 shrink-0" aria-hidden />
        <dd>
          <time dateTime={event.startDate}>{when}</time>
          {event.moreDates > 0 && (
            <span className="whitespace-nowrap font-medium text-primary" data-testid="more-dates">
              {' · '}
              {moreDatesLabel(event.moreDates)}
            </span>
          )}
        </dd>
      </div>
      {where && (
        <div className={`flex min-w-0 items-center gap-2 ${row}`}>
          <dt className="sr-only">Where</dt>
          <MapPin className="h-4 w-4 shrink-0" aria-hidden />
          <dd className="truncate">
            {where}
            {event.distance !== null && (
              <span className="whitespace-nowrap">
                {' '}
                · {event.distance.toFixed(1)} {unit}
              </span>
            )}
          </dd>
        </div>
      )}
      <div className={`flex min-w-0 items-center gap-2 ${row}`}>
        <dt className="sr-only">Price</dt>
        <Ticket className="h-4 w-4 shrink-0" aria-hidden />
        <dd>
          <span className="font-semibold text-foreground" data-testid="price-label">
            {priceLabel(event)}
          </span>
          <PriceNote event={event} />
        </dd>
      </div>
      <div className="flex items-center gap-2">
        <dt className="sr-only">Attendees</dt>
        <Users className="h-4 w-4 shrink-0" aria-hidden />
        <dd>{attendeesLabel(event.attendeeCount)}</dd>
      </div>
      <div className="flex items-center gap-2">
        <dt className="sr-only">Source</dt>
        <Radio className="h-4 w-4 shrink-0" aria-hidden />
        <dd data-testid="source-type">{event.sourceType}</dd>
      </div>
    </dl>
  );
}

/**
 * An event as lists show it (DESIGN.md 'Event card'): picture, category chip, heart, title (the
 * link to the event, stretched over the card), when in the city's zone, where, price, attendees
 * and source. The list variant puts the same facts in one row.
 */
export function EventCard({ event, variant = 'grid', headingLevel = 3 }: { event: EventSummary; variant?: 'grid' | 'list'; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const title = (
    <H className="line-clamp-2 text-base font-semibold leading-snug">
      <Link
        href={`/events/${event.id}`}
        className="rounded outline-none after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:text-primary focus-visible:after:outline focus-visible:after:outline-2 focus-visible:after:outline-[var(--ring)]"
      >
        {event.title}
      </Link>
    </H>
  );
  const heart = <FavoriteButton eventId={event.id} title={event.title} isFavorited={event.isFavorited} className="relative z-10" />;

  if (variant === 'list') {
    return (
      <article
        data-testid="event-card"
        data-category={event.category}
        className="relative flex gap-4 rounded-lg border border-border bg-card p-3 shadow-sm transition-shadow duration-200 hover:shadow-md"
      >
        <div className="relative aspect-video w-28 shrink-0 overflow-hidden rounded-md sm:w-44">
          <EventImage event={event} className="h-full w-full" sizes="(min-width: 640px) 176px, 112px" />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <CategoryChip category={event.category} className="mb-1 border border-border shadow-none" />
              {title}
            </div>
            <div className="shrink-0">{heart}</div>
          </div>
          <EventFacts event={event} compact />
        </div>
      </article>
    );
  }

  return (
    <article
      data-testid="event-card"
      data-category={event.category}
      className="relative flex flex-col overflow-hidden rounded-lg border border-border bg-card shadow-sm transition-shadow duration-200 hover:shadow-md"
    >
      <div className="relative aspect-video w-full overflow-hidden">
        <EventImage event={event} className="h-full w-full" />
        <CategoryChip category={event.category} className="absolute left-3 top-3" />
        <div className="absolute right-2 top-2">{heart}</div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        {title}
        <EventFacts event={event} />
      </div>
    </article>
  );
}

/** A placeholder with the card's shape, so nothing jumps when events arrive. */
export function EventCardSkeleton({ variant = 'grid' }: { variant?: 'grid' | 'list' }) {
  if (variant === 'list') {
    return (
      <div data-testid="event-card-skeleton" aria-hidden className="flex animate-pulse gap-4 rounded-lg border border-border bg-card p-3">
        <div className="aspect-video w-28 shrink-0 rounded-md bg-muted sm:w-44" />
        <div className="flex flex-1 flex-col gap-2 py-1">
          <div className="h-4 w-16 rounded-full bg-muted" />
          <div className="h-5 w-3/4 rounded bg-muted" />
          <div className="h-4 w-1/2 rounded bg-muted" />
          <div className="h-4 w-1/3 rounded bg-muted" />
        </div>
      </div>
    );
  }
  return (
    <div data-testid="event-card-skeleton" aria-hidden className="flex animate-pulse flex-col overflow-hidden rounded-lg border border-border bg-card">
      <div className="aspect-video w-full bg-muted" />
      <div className="flex flex-col gap-3 p-4">
        <div className="h-5 w-4/5 rounded bg-muted" />
        <div className="h-4 w-3/5 rounded bg-muted" />
        <div className="h-4 w-2/3 rounded bg-muted" />
        <div className="h-4 w-1/3 rounded bg-muted" />
        <div className="h-4 w-1/2 rounded bg-muted" />
      </div>
    </div>
  );
}
