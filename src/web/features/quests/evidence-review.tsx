import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatDistance } from '../ar/ar-view.ts';
import { useCityConfig } from '../events/events.queries.ts';
import { usePendingEvidence, useReviewEvidence } from './quests.queries.ts';

/** Admin: photos waiting for review. */
export function EvidenceReview() {
  const list = usePendingEvidence(true);
  const review = useReviewEvidence();
  const unit = useCityConfig().data?.city.distanceUnit ?? 'km';
  const items = list.data?.evidence ?? [];
  const total = list.data?.total ?? 0;
  return (
    <div className="rounded-xl border border-border bg-card p-4">
      <h2 className="text-lg font-semibold">Photo Evidence</h2>
      {total > items.length && (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="evidence-more">
          {total.toLocaleString('en-US')} photos are waiting: here are the oldest {items.length}, and the next ones follow as you decide these.
        </p>
      )}
      {list.isPending ? (
        <Spinner label="Loading evidence" />
      ) : items.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No photos waiting.</p>
      ) : (
        <ul className="mt-2 grid gap-3">
          {items.map((ev) => (
            <li key={ev.id} className="grid gap-2 text-sm">
              <img src={`/api/admin/hunt/evidence/${ev.id}/photo`} alt={`Photo for ${ev.nodeName} by ${ev.userName}`} className="max-h-40 w-full rounded-lg object-cover" />
              <p>
                <strong>{ev.nodeName}</strong> by {ev.userName}
                {ev.distanceM !== null && ` · ${formatDistance(ev.distanceM, unit)} away`}
              </p>
              <div className="flex gap-2">
                <Button onClick={() => review.mutate({ id: ev.id, decision: 'accept' })} disabled={review.isPending}>
                  Accept
                </Button>
                <Button variant="outline" onClick={() => review.mutate({ id: ev.id, decision: 'reject' })} disabled={review.isPending}>
                  Reject
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
