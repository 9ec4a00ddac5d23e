import { CalendarDays, Check, Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import type { VendorDetail } from '../../../contract/vendors.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatEventWhen, useCityTimeZone } from '../events/events.queries.ts';
import { useDebounced } from './use-debounced.ts';
import { useAddAppearance, useEventSearch } from './vendors.queries.ts';

const input = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-[var(--ring)]';

/** The vendor's owner (or an admin) links it to an upcoming event found by searching. */
export function AddAppearanceDialog({ open, onOpenChange, vendor }: { open: boolean; onOpenChange: (o: boolean) => void; vendor: VendorDetail }) {
  // The content mounts on each opening, so the search starts empty every time.
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Add appearance" description="Find an upcoming event where this vendor will be.">
      <AppearanceForm onOpenChange={onOpenChange} vendor={vendor} />
    </Dialog>
  );
}

function AppearanceForm({ onOpenChange, vendor }: { onOpenChange: (o: boolean) => void; vendor: VendorDetail }) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<EventSummary | null>(null);
  const [booth, setBooth] = useState(vendor.booth);
  const [error, setError] = useState<string | null>(null);
  const term = useDebounced(search, 300);
  const results = useEventSearch(term);
  const add = useAddAppearance(vendor.id);
  const tz = useCityTimeZone();
  const already = new Set(vendor.appearances.map((a) => a.eventId));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!picked) return setError('Choose an event first');
    setError(null);
    try {
      await add.mutateAsync({ eventId: picked.id, booth: booth.trim() });
      toast({ title: 'Appearance added', description: `${vendor.name} is listed at ${picked.title}. Followers were told.` });
      onOpenChange(false);
    } catch (err) {
      setError(err instanceof ApiError ? (err.serverMessage ?? err.message) : 'Could not add the appearance');
    }
  }

  // The events list holds upcoming events; the server refuses one that has ended.
  const events = results.data ?? [];
  return (
    <form className="grid gap-3" onSubmit={(e) => void submit(e)}>
      <label className="grid gap-1 text-sm font-medium">
        Search events
        <span className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <input className={`${input} pl-9`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Farmers market, night market…" />
        </span>
      </label>
      <div className="max-h-64 overflow-y-auto" aria-live="polite">
        {term.trim().length < 2 ? (
          <p className="text-sm text-muted-foreground">Type at least 2 letters.</p>
        ) : results.isPending ? (
          <InlineLoading label="Searching events…" />
        ) : results.isError ? (
          <p className="text-sm text-destructive">Events could not be searched ({results.error.message}).</p>
        ) : events.length === 0 ? (
          <p className="text-sm text-muted-foreground">No upcoming events match.</p>
        ) : (
          <ul className="grid gap-1" aria-label="Matching events">
            {events.map((ev) => {
              const on = picked?.id === ev.id;
              const listed = already.has(ev.id);
              return (
                <li key={ev.id}>
                  <button
                    type="button"
                    disabled={listed}
                    aria-pressed={on}
                    onClick={() => setPicked(ev)}
                    className={`flex min-h-11 w-full items-start gap-2 rounded-lg border px-3 py-2 text-left text-sm disabled:opacity-50 ${on ? 'border-primary bg-primary/10' : 'border-border hover:bg-muted'}`}
                  >
                    {on ? <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden /> : <CalendarDays className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />}
                    <span className="min-w-0">
                      <span className="block font-medium">{ev.title}</span>
                      <span className="block text-muted-foreground">
                        {formatEventWhen(ev, tz ?? ev.timeZone)}
                        {ev.venue ? ` · ${ev.venue}` : ''}
                        {listed ? ' · already listed' : ''}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <label className="grid gap-1 text-sm font-medium">
        Booth at this event
        <input className={input} value={booth} onChange={(e) => setBooth(e.target.value)} maxLength={60} />
      </label>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={!picked || add.isPending}>
          Add appearance
        </Button>
      </div>
    </form>
  );
}
