import { Split } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { useSplitEvent } from './admin.queries.ts';

/**
 * For admins on the page of an event that other sources' records were merged into: splits it
 * back into its sources, after a confirmation. Merges are reversible; this is how.
 */
export function SplitEventButton({ eventId, title, mergedRecords }: { eventId: string; title: string; mergedRecords: number }) {
  const { isAdmin } = useAuth();
  const [open, setOpen] = useState(false);
  const split = useSplitEvent();
  if (!isAdmin || mergedRecords <= 0) return null;
  const records = mergedRecords === 1 ? '1 record from another source' : `${mergedRecords} records from other sources`;

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
        description={`“${title}” holds ${records}. Splitting lists each source's event on its own again, and remembers that they are not to be merged.`}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)} disabled={split.isPending}>
            Cancel
          </Button>
          <Button disabled={split.isPending} onClick={() => split.mutate(eventId, { onSuccess: () => setOpen(false) })}>
            <Split className="h-4 w-4" aria-hidden />
            {split.isPending ? 'Splitting…' : 'Split'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
