import { Split } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { useMergedRecords, useSplitEvent } from './admin.queries.ts';

/**
 * For admins on the page of an event that other sources' records were merged into: splits it
 * back into its sources, after a confirmation: one record that does not belong (the others stay
 * merged), or all of them. Merges are reversible; this is how.
 */
export function SplitEventButton({ eventId, title, mergedRecords }: { eventId: string; title: string; mergedRecords: number }) {
  const { isAdmin } = useAuth();
  const [open, setOpen] = useState(false);
  const split = useSplitEvent();
  const records = useMergedRecords(eventId, isAdmin && open && mergedRecords > 0);
  const { data: config } = useCityConfig();
  if (!isAdmin || mergedRecords <= 0) return null;
  const held = mergedRecords === 1 ? '1 record from another source' : `${mergedRecords} records from other sources`;
  const done = () => {
    setOpen(false);
    void records.refetch();
  };
  // One record alone is the whole split: only "Split" is offered then.
  const listed = (records.data ?? []).length > 1 ? (records.data ?? []) : [];

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Split className="h-4 w-4" aria-hidden />
        Split into sources
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !split.isPending && setOpen(next)}
        title="Split into sources?"
        description={`“${title}” holds ${held}. Splitting lists each source's event on its own again, and remembers that they are not to be merged.`}
      >
        {listed.length > 0 && (
          <ul className="mb-4 space-y-2" aria-label="Records merged into this event">
            {listed.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-2 text-sm">
                <span className="min-w-0">
                  <span className="font-medium">{r.sourceNames.join(', ') || 'A source'}</span>
                  {r.dropped && <span className="text-muted-foreground"> (no longer lists it)</span>}
                  <span className="block text-muted-foreground">
                    {r.title} · {formatEventWhen({ startDate: r.startDate, allDay: false }, config?.city.timeZone, config?.city.locale)}
                    {r.venue ? ` · ${r.venue}` : ''}
                  </span>
                </span>
                <Button variant="outline" disabled={split.isPending} onClick={() => split.mutate({ id: eventId, recordId: r.id }, { onSuccess: done })} aria-label={`Split out ${r.sourceNames.join(', ') || 'this record'}`}>
                  Split this one out
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)} disabled={split.isPending}>
            Cancel
          </Button>
          <Button disabled={split.isPending} onClick={() => split.mutate(eventId, { onSuccess: done })}>
            <Split className="h-4 w-4" aria-hidden />
            {split.isPending ? 'Splitting…' : listed.length > 0 ? 'Split all' : 'Split'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
