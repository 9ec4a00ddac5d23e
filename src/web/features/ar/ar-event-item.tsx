import { Users } from 'lucide-react';
import { Link } from 'wouter';
import { formatEventWhen } from '../events/events.queries.ts';
import { compassPoint, formatDistance, type ShownEvent } from './ar-view.ts';

/**
 * One row of AR Discovery's nearby list: what, when (in the city's zone, as every list shows it),
 * how far and which way, category and attendees. A real event links to its page; a sample does not.
 */
export function ArEventItem({ event: e, unit, timeZone, locale }: { event: ShownEvent; unit: 'mi' | 'km'; timeZone: string | undefined; locale: string | undefined }) {
  const when = formatEventWhen({ startDate: e.time, allDay: e.allDay }, timeZone, locale);
  return (
    <li className="py-2 text-sm" data-testid="ar-event">
      <p className="font-medium">
        {e.sample ? (
          <>
            {e.title} <span className="text-xs font-normal text-muted-foreground">(sample)</span>
          </>
        ) : (
          <Link href={`/events/${e.id}`} className="hover:underline focus-visible:underline">
            {e.title}
          </Link>
        )}
      </p>
      <p className="text-xs text-muted-foreground">
        <time dateTime={e.time}>{when}</time>
      </p>
      <p className="text-xs text-muted-foreground">
        {formatDistance(e.distanceM, unit)} {compassPoint(e.bearing)} · {e.category} ·{' '}
        <span className="inline-flex items-center gap-0.5">
          <Users className="h-3 w-3" aria-hidden /> {e.attendees}
        </span>
      </p>
    </li>
  );
}
