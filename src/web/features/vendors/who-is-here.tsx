import { Store } from 'lucide-react';
import { Link } from 'wouter';
import { VENDOR_CATEGORY_NAMES } from '../../../contract/vendors.ts';
import { useEventVendors } from './vendors.queries.ts';

/** The event page's "Who's here": vendors with a booth at this event; nothing when there are none. */
export function WhoIsHere({ eventId }: { eventId: string }) {
  const { data } = useEventVendors(eventId);
  const list = data?.vendors ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="who-is-here-heading" className="mt-6" data-testid="who-is-here">
      <h2 id="who-is-here-heading" className="text-xl font-bold">
        Who&apos;s here
      </h2>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2">
        {list.map((v) => (
          <li key={v.id} className="relative flex items-start gap-3 rounded-lg border border-border bg-card p-3 hover:shadow-sm">
            <Store className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
            <div className="min-w-0">
              <Link href={`/vendors/${v.id}`} className="font-semibold after:absolute after:inset-0 after:rounded-lg after:content-[''] hover:text-primary">
                {v.name}
              </Link>
              <p className="text-sm text-muted-foreground">
                {VENDOR_CATEGORY_NAMES[v.category]}
                {v.booth ? ` · ${v.booth}` : ''}
              </p>
              {v.products.length > 0 && <p className="line-clamp-1 text-sm text-muted-foreground">{v.products.slice(0, 3).join(', ')}</p>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
