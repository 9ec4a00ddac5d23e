import { Check, Split } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { DuplicateListResponse, DuplicatePair, DuplicateSide } from '../../../contract/duplicates.ts';
import type { EventSummary } from '../../../contract/events.ts';
import { Button } from '../../components/ui/button.tsx';
import { Chip } from '../../components/ui/chip.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { useDuplicates, useKeepApart, useMergeDuplicate } from './admin.queries.ts';

const STATUS_LABEL: Record<EventSummary['status'], string> = { approved: 'Approved', pending: 'Pending Review', rejected: 'Rejected' };
const KIND_LABEL: Record<DuplicatePair['kind'], string> = { cross_source: 'Two sources', same_source: 'One source, listed twice' };

/** Scores and thresholds as the server keeps them (0..1), two decimals: '0.82'. */
export const formatScore = (n: number) => n.toFixed(2);

/** The one line on what admins' decisions have taught the automatic merge. */
export function learnedLine({ mergeThreshold, decisions }: Pick<DuplicateListResponse, 'mergeThreshold' | 'decisions'>): string {
  const n = decisions.merged + decisions.keptApart;
  const counts = `${decisions.merged} merged, ${decisions.keptApart} kept apart`;
  if (mergeThreshold === null) return `Not enough decisions yet to merge on its own (${counts})`;
  return `Learned from ${n} ${n === 1 ? 'decision' : 'decisions'}: pairs scoring ≥ ${formatScore(mergeThreshold)} now merge on their own (${counts})`;
}

/**
 * The admin dashboard's 'Possible duplicates': pairs the importer was unsure about, side by side.
 * Merging keeps the chosen listing and makes the other one of its sources (an admin can split it
 * back from the event page); keeping apart leaves both. Each decision trains the threshold.
 */
export function DuplicatesReview({ onNavigate }: { onNavigate?: () => void }) {
  const dupes = useDuplicates();

  let body: ReactNode;
  if (dupes.isPending) {
    body = <InlineLoading label="Loading possible duplicates" />;
  } else if (dupes.isError) {
    body = (
      <div role="alert" className="rounded-lg border border-border p-4 text-sm">
        <p className="text-destructive">Could not load the possible duplicates.</p>
        <Button variant="outline" className="mt-2" onClick={() => void dupes.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (dupes.data.pairs.length === 0) {
    body = (
      <div className="rounded-lg border border-dashed border-border p-6 text-center">
        <p className="font-semibold">No possible duplicates</p>
        <p className="mt-1 text-sm text-muted-foreground">Pairs the importer is unsure about show here, to merge or keep apart.</p>
      </div>
    );
  } else {
    body = (
      <ul className="grid gap-3" aria-label="Possible duplicates">
        {dupes.data.pairs.map((p) => (
          <PairItem key={p.id} pair={p} onNavigate={onNavigate} />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="duplicates-heading" className="mt-6">
      <h3 id="duplicates-heading" className="text-lg font-semibold">
        Possible duplicates
      </h3>
      <p className="mb-2 text-sm text-muted-foreground">
        Listings that may be one event. Keep one to merge them (the other becomes one of its sources, and can be split back), or keep them apart.
      </p>
      {dupes.data && (
        <p className="mb-3 text-sm font-medium" data-testid="duplicates-learned">
          {learnedLine(dupes.data)}
        </p>
      )}
      {dupes.data && dupes.data.open > dupes.data.pairs.length && (
        <p className="mb-3 text-sm text-muted-foreground" data-testid="duplicates-more">
          {dupes.data.open.toLocaleString('en-US')} pairs are open: here are the {dupes.data.pairs.length} most likely, and the next ones follow as you decide these.
        </p>
      )}
      {body}
    </section>
  );
}

function PairItem({ pair, onNavigate }: { pair: DuplicatePair; onNavigate?: () => void }) {
  const merge = useMergeDuplicate();
  const keepApart = useKeepApart();
  const busy = merge.isPending || keepApart.isPending;
  const reasonId = useId();
  return (
    <li data-testid="duplicate-pair" aria-describedby={reasonId} className="min-w-0 rounded-lg border border-border bg-card p-3 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Chip tone="accent">Score {formatScore(pair.score)}</Chip>
        <Chip>{KIND_LABEL[pair.kind]}</Chip>
        <p id={reasonId} className="min-w-0 text-sm text-muted-foreground">
          {pair.reason}
        </p>
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {/* A listing its source dropped is not kept over one still listed: that one would leave every list. */}
        <PairSide label="First listing" event={pair.a} busy={busy} canKeep={!pair.a.removedBySource || pair.b.removedBySource} onKeep={() => merge.mutate({ pair, keepId: pair.a.id })} onNavigate={onNavigate} />
        <PairSide label="Second listing" event={pair.b} busy={busy} canKeep={!pair.b.removedBySource || pair.a.removedBySource} onKeep={() => merge.mutate({ pair, keepId: pair.b.id })} onNavigate={onNavigate} />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">Not the same event?</p>
        <Button variant="outline" className="px-3" disabled={busy} onClick={() => keepApart.mutate(pair)}>
          <Split className="h-4 w-4" aria-hidden />
          Keep apart
        </Button>
      </div>
    </li>
  );
}

function PairSide(props: { label: string; event: DuplicateSide; busy: boolean; canKeep: boolean; onKeep: () => void; onNavigate?: () => void }) {
  const { event } = props;
  const { data: config } = useCityConfig();
  const headingId = useId();
  const when = formatEventWhen(event, config?.city.timeZone ?? event.timeZone, config?.city.locale);
  // The address too: two rooms or two branches of one venue name may differ only there.
  const place = [event.venue, event.address && !event.venue.includes(event.address) ? event.address : null, event.neighbourhood].filter(Boolean).join(' · ');
  return (
    <div role="group" aria-labelledby={headingId} data-testid="duplicate-side" className="flex min-w-0 flex-col rounded-lg border border-border p-3">
      <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{props.label}</p>
      <h4 id={headingId} className="mt-1 break-words font-semibold">
        <Link href={`/events/${event.id}`} onClick={props.onNavigate} className="hover:text-primary hover:underline">
          {event.title}
        </Link>
      </h4>
      <dl className="mt-1 grid gap-0.5 text-sm">
        <div>
          <dt className="sr-only">When</dt>
          <dd>
            <time dateTime={event.startDate}>{when}</time>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Where</dt>
          <dd className={place ? '' : 'italic text-muted-foreground'}>{place || 'No venue given'}</dd>
        </div>
        {event.description && (
          <div>
            <dt className="sr-only">Description</dt>
            <dd data-testid="duplicate-description" className="line-clamp-3 break-words text-muted-foreground">
              {event.description}
            </dd>
          </div>
        )}
        {event.sourceNames.length > 0 && (
          <div>
            {/* Two feeds of one kind read alike by type: the names tell them apart. */}
            <dt className="sr-only">Listed by</dt>
            <dd className="break-words text-muted-foreground">From {event.sourceNames.join(' · ')}</dd>
          </div>
        )}
      </dl>
      <div className="mt-2 flex flex-wrap gap-1.5">
        <Chip>{event.sourceType}</Chip>
        <Chip tone={event.status === 'approved' ? 'success' : event.status === 'pending' ? 'accent' : 'destructive'}>{STATUS_LABEL[event.status]}</Chip>
        {event.isDemo && <Chip>Demo</Chip>}
        {event.removedBySource && <Chip tone="destructive">Removed by its source</Chip>}
      </div>
      <Button variant="outline" className="mt-3 self-start px-3 text-success" disabled={props.busy || !props.canKeep} onClick={props.onKeep}>
        <Check className="h-4 w-4" aria-hidden />
        Keep this one
      </Button>
    </div>
  );
}
