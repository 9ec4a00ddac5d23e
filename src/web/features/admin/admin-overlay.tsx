import { Check, Pencil, Settings2, X } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { CATEGORIES, EventPatch, namesOf, PENDING_PAGE, sourcesDisagree, type EventSummary, type SavedEvent } from '../../../contract/events.ts';
import { fromZonedInput, toZonedInput } from '../../lib/city-time.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { stackCell, StackTable } from '../../components/ui/stack-table.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { CategoryChip } from '../events/event-card.tsx';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { DuplicatesReview } from './duplicates-review.tsx';
import {
  serverFieldErrors,
  useAiStatus,
  useEditEvent,
  useEventStatsQuery,
  useFavoriteEvents,
  usePendingEvents,
  useReviewEvent,
  useSources,
} from './admin.queries.ts';

type OpenProps = { open: boolean; onOpenChange: (o: boolean) => void };

/** The 'My Events' overlay: the admin dashboard for admins, the user's saved events otherwise. */
export function AdminOverlay({ open, onOpenChange }: OpenProps) {
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <Dialog open={open} onOpenChange={onOpenChange} title="My Events">
        <MyEvents onNavigate={() => onOpenChange(false)} />
      </Dialog>
    );
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Admin Dashboard" wide>
      <AdminDashboard onNavigate={() => onOpenChange(false)} />
    </Dialog>
  );
}

/* ------------------------------------------------------------------ shared form bits */

const controlClass = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-base outline-none focus:border-ring aria-[invalid=true]:border-destructive';
export const inputClass = controlClass;

/** A label, a control, an optional hint and the inline error, wired for screen readers. */
export function FormField(props: {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (a11y: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      {props.children({ id, 'aria-invalid': props.error ? true : undefined, 'aria-describedby': describedBy })}
      {props.hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted-foreground">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-destructive">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A message that fits no single field, read out when it appears. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="mb-4 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}


/* ------------------------------------------------------------------ non-admins: My Events */

/** One saved event: its link, when and where, and why it is no longer listed, if it is not. */
function SavedEventItem({ event: e, onNavigate }: { event: SavedEvent; onNavigate: () => void }) {
  const { data: config } = useCityConfig();
  return (
    <li className="flex flex-col gap-0.5 px-3 py-2">
      <Link href={`/events/${e.id}`} onClick={onNavigate} className="font-medium hover:text-primary hover:underline">
        {e.title}
      </Link>
      <span className="text-sm text-muted-foreground">
        <time dateTime={e.startDate}>{formatEventWhen(e, config?.city.timeZone ?? e.timeZone, config?.city.locale)}</time>
        {e.venue ? ` · ${e.venue}` : ''}
      </span>
      {(e.removedBySource || e.status === 'rejected') && (
        // What the source says of the event itself first; else that Townbeat no longer lists it (an admin turned it down).
        <span className="text-sm font-semibold text-destructive" data-testid="saved-removed">
          {e.cancelledBySource ? 'Cancelled' : e.postponedBySource ? 'Postponed' : e.removedBySource ? 'Removed by the source' : 'Removed from Townbeat'}
          {e.removedBySource && e.stillListedBy.length > 0 && ` · ${namesOf(e.stillListedBy)} still ${e.stillListedBy.length === 1 ? 'lists' : 'list'} it`}
        </span>
      )}
      {!e.removedBySource && e.status !== 'rejected' && sourcesDisagree(e) && (
        // Listed, while a source whose record was merged into it calls it off.
        <span className="text-sm font-semibold text-accent" data-testid="saved-disagree">
          Sources disagree: {sourcesDisagree(e)}
        </span>
      )}
    </li>
  );
}

const listClass = 'mt-2 divide-y divide-border rounded-lg border border-border';

function MyEvents({ onNavigate }: { onNavigate: () => void }) {
  const favorites = useFavoriteEvents();
  // Upcoming first, soonest first (the server's order); the ones that have ended below, the latest first.
  const upcoming = favorites.data?.filter((e) => !e.ended) ?? [];
  const past = favorites.data?.filter((e) => e.ended).reverse() ?? [];
  const pastHeading = useId();
  return (
    <div>
      <p className="text-muted-foreground">
        Tap the heart on any event on the{' '}
        <Link href="/dashboard" onClick={onNavigate} className="font-medium text-primary underline-offset-2 hover:underline">
          Discover page
        </Link>{' '}
        to save it; your saved events show here.
      </p>
      <h3 className="mt-4 text-sm font-semibold">Saved events</h3>
      {favorites.isPending ? (
        <InlineLoading label="Loading your saved events" />
      ) : favorites.isError ? (
        <p role="alert" className="mt-2 text-sm text-destructive">
          Could not load your saved events.
        </p>
      ) : favorites.data.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No saved events yet.</p>
      ) : (
        <>
          {upcoming.length > 0 ? (
            <ul className={listClass} aria-label="Saved events">
              {upcoming.map((e) => (
                <SavedEventItem key={e.id} event={e} onNavigate={onNavigate} />
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-muted-foreground">No upcoming saved events.</p>
          )}
          {past.length > 0 && (
            <>
              <h3 id={pastHeading} className="mt-4 text-sm font-semibold">
                Past events
              </h3>
              <ul className={listClass} aria-labelledby={pastHeading}>
                {past.map((e) => (
                  <SavedEventItem key={e.id} event={e} onNavigate={onNavigate} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </div>
  );
}

/* ------------------------------------------------------------------ admins: the dashboard */

function StatTile({ label, value, note }: { label: string; value: ReactNode; note?: string }) {
  return (
    <div className="rounded-lg border border-border bg-card p-3 shadow-sm">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-bold" data-testid={`stat-${label}`}>
        {value}
      </p>
      {note && <p className="mt-0.5 text-xs text-muted-foreground">{note}</p>}
    </div>
  );
}

function AdminDashboard({ onNavigate }: { onNavigate: () => void }) {
  const stats = useEventStatsQuery();
  const sources = useSources();
  const ai = useAiStatus();

  const show = (q: { isPending: boolean; isError: boolean }, value: number | string | undefined) => (q.isPending ? '…' : q.isError || value === undefined ? '—' : value);
  const enabledSources = sources.data?.filter((s) => s.enabled).length;
  const dataSources = enabledSources ?? (stats.data ? stats.data.activeSources : sources.isPending || stats.isPending ? '…' : '—');
  const accuracy = ai.isPending ? '…' : ai.data ? `${(ai.data.accuracy * 100).toFixed(1)}%` : '—';

  return (
    <div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatTile label="Total Events" value={show(stats, stats.data?.totalEvents)} />
        <StatTile label="Today's Events" value={show(stats, stats.data?.todayEvents)} />
        <StatTile label="Data Sources" value={dataSources} />
        <StatTile label="AI Accuracy" value={accuracy} note={ai.data ? `held-out, ${ai.data.evaluatedOn}${ai.data.llm ? `; unsure events go to ${ai.data.llm.model}` : ''}` : undefined} />
      </div>
      <div className="mt-3 flex justify-end">
        <Link href="/admin/sources" onClick={onNavigate} className={buttonClass('outline', 'min-h-11')}>
          <Settings2 className="h-4 w-4" aria-hidden />
          Manage sources
        </Link>
      </div>
      <ReviewTable />
      <DuplicatesReview onNavigate={onNavigate} />
    </div>
  );
}

function ReviewTable() {
  const [offset, setOffset] = useState(0);
  const pending = usePendingEvents(offset);
  const page = pending.data;
  const { data: config } = useCityConfig();
  const [editing, setEditing] = useState<EventSummary | null>(null);

  let body: ReactNode;
  if (pending.isPending) {
    body = <InlineLoading label="Loading events to review" />;
  } else if (pending.isError) {
    body = (
      <div role="alert" className="rounded-lg border border-border p-4 text-sm">
        <p className="text-destructive">Could not load the events waiting for review.</p>
        <Button variant="outline" className="mt-2" onClick={() => void pending.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (pending.data.events.length === 0 && offset > 0) {
    // Everything on a later page was decided meanwhile.
    body = (
      <div className="rounded-lg border border-dashed border-border p-6 text-center">
        <p className="font-semibold">Nothing left on this page</p>
        <Button variant="outline" className="mt-2" onClick={() => setOffset(0)}>
          Show the newest
        </Button>
      </div>
    );
  } else if (pending.data.events.length === 0) {
    body = (
      <div className="rounded-lg border border-dashed border-border p-6 text-center">
        <p className="font-semibold">No pending events</p>
        <p className="mt-1 text-sm text-muted-foreground">All events are currently up to date</p>
      </div>
    );
  } else {
    body = (
      <div className="rounded-lg border border-border md:overflow-x-auto">
        <StackTable columns={REVIEW_COLUMNS} className="md:min-w-[640px]" headClassName="uppercase tracking-wide">
          {pending.data.events.map((e) => (
            <ReviewRow key={e.id} event={e} when={formatEventWhen(e, config?.city.timeZone ?? e.timeZone, config?.city.locale)} onEdit={() => setEditing(e)} />
          ))}
        </StackTable>
      </div>
    );
  }

  return (
    <section aria-labelledby="review-heading" className="mt-6">
      <h3 id="review-heading" className="mb-2 text-lg font-semibold">
        Recent Events Requiring Review
      </h3>
      {body}
      {page && (page.total > page.events.length || offset > 0) && page.events.length > 0 && (
        <nav aria-label="Pages of events waiting for review" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
          <p data-testid="review-range">
            {(offset + 1).toLocaleString('en-US')}–{(offset + page.events.length).toLocaleString('en-US')} of {page.total.toLocaleString('en-US')} waiting, newest first
          </p>
          <div className="flex gap-2">
            <Button variant="outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PENDING_PAGE))}>
              Newer
            </Button>
            <Button variant="outline" disabled={offset + page.events.length >= page.total} onClick={() => setOffset(offset + PENDING_PAGE)}>
              Older
            </Button>
          </div>
        </nav>
      )}
      <EditEventDialog event={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

const REVIEW_COLUMNS = ['Event', 'Source', 'Category', 'Status', 'Actions'] as const;

function ReviewRow({ event, when, onEdit }: { event: EventSummary; when: string; onEdit: () => void }) {
  const approve = useReviewEvent('approve');
  const reject = useReviewEvent('reject');
  const busy = approve.isPending || reject.isPending;
  return (
    <tr role="row" data-testid="review-row" className="flex flex-wrap items-center gap-2 p-3 md:table-row md:p-0">
      <td role="cell" className={`basis-full ${stackCell} md:min-w-[10rem]`}>
        <p className="font-medium">{event.title}</p>
        <p className="text-xs text-muted-foreground">{[when, event.venue].filter(Boolean).join(' · ')}</p>
      </td>
      <td role="cell" className={stackCell}>
        {/* Stacked, the column header is out of sight: name the value (screen readers have the header). */}
        <span aria-hidden className="mr-1 text-xs text-muted-foreground md:hidden">
          Source
        </span>
        <span className="text-xs font-medium md:text-sm md:font-normal">{event.sourceType}</span>
      </td>
      <td role="cell" className={stackCell}>
        <CategoryChip category={event.category} className="border border-border shadow-none" />
      </td>
      <td role="cell" className={stackCell}>
        <span className="inline-flex whitespace-nowrap rounded-full bg-accent-soft px-2.5 py-1 text-xs font-semibold text-accent">Pending Review</span>
      </td>
      <td role="cell" className={`basis-full ${stackCell}`}>
        {/* At most a row of two and Edit below; narrower (the dialog on a small laptop) one a line, never cut off. */}
        <div className="flex flex-wrap gap-1 md:max-w-[14.5rem]">
          <Button
            variant="outline"
            className="px-2.5 text-success max-md:px-2"
            disabled={busy}
            onClick={() => approve.mutate(event.id)}
          >
            <Check className="h-4 w-4 shrink-0" aria-hidden />
            Approve
          </Button>
          <Button
            variant="outline"
            className="px-2.5 text-destructive max-md:px-2"
            disabled={busy}
            onClick={() => reject.mutate(event.id)}
          >
            <X className="h-4 w-4 shrink-0" aria-hidden />
            Reject
          </Button>
          <Button variant="ghost" className="px-2.5 max-md:px-2" disabled={busy} onClick={onEdit}>
            <Pencil className="h-4 w-4 shrink-0" aria-hidden />
            Edit
          </Button>
        </div>
      </td>
    </tr>
  );
}

/* ------------------------------------------------------------------ the Edit dialog */

function EditEventDialog({ event, onClose }: { event: EventSummary | null; onClose: () => void }) {
  return (
    <Dialog open={event !== null} onOpenChange={(o) => !o && onClose()} title="Edit event" description={event ? `Changes apply to “${event.title}”.` : undefined}>
      {event && <EditEventForm key={event.id} event={event} onDone={onClose} />}
    </Dialog>
  );
}

const OPTIONS = [...CATEGORIES, 'Other'] as const;

function EditEventForm({ event, onDone }: { event: EventSummary; onDone: () => void }) {
  const { data: config } = useCityConfig();
  const timeZone = config?.city.timeZone ?? event.timeZone;
  const initial = {
    title: event.title,
    category: event.category,
    when: toZonedInput(event.startDate, timeZone),
    venue: event.venue,
    price: event.isFree || event.price === null ? '' : String(event.price),
  };
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const edit = useEditEvent();
  const set = (k: keyof typeof initial) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    const patch: EventPatch = {};
    if (form.title.trim() !== initial.title) patch.title = form.title.trim();
    if (form.category !== initial.category) patch.category = form.category as EventPatch['category'];
    if (form.when !== initial.when) {
      const iso = form.when ? fromZonedInput(form.when, timeZone) : null;
      if (iso) patch.startDate = iso;
      else found.startDate = 'Enter a date and time';
    }
    if (form.venue.trim() !== initial.venue) patch.venue = form.venue.trim();
    if (form.price.trim() !== initial.price) {
      const raw = form.price.trim();
      const price = raw === '' ? null : Number(raw);
      if (price !== null && (!Number.isFinite(price) || price < 0)) found.price = 'Price must be a number, 0 or more';
      else patch.price = price;
    }
    if (patch.title === '') found.title = 'Title is required';
    if (Object.keys(found).length === 0 && Object.keys(patch).length > 0) {
      const parsed = EventPatch.safeParse(patch);
      if (!parsed.success) for (const i of parsed.error.issues) found[String(i.path[0] ?? 'form')] ??= i.message;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    edit.mutate(
      { id: event.id, patch },
      {
        onSuccess: () => {
          toast({ title: 'Event updated' });
          onDone();
        },
        onError: (err) => setErrors(serverFieldErrors(err)),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <FormField label="Title" error={errors.title}>
        {(a) => <input {...a} type="text" value={form.title} onChange={(e) => set('title')(e.target.value)} className={controlClass} maxLength={300} />}
      </FormField>
      <FormField label="Category" error={errors.category}>
        {(a) => (
          <select {...a} value={form.category} onChange={(e) => set('category')(e.target.value)} className={controlClass}>
            {!(OPTIONS as readonly string[]).includes(form.category) && <option value={form.category}>{form.category}</option>}
            {OPTIONS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Date and time" error={errors.startDate} hint={`In the city's time zone (${timeZone}).`}>
        {(a) => <input {...a} type="datetime-local" value={form.when} onChange={(e) => set('when')(e.target.value)} className={controlClass} />}
      </FormField>
      <FormField label="Venue" error={errors.venue}>
        {(a) => <input {...a} type="text" value={form.venue} onChange={(e) => set('venue')(e.target.value)} className={controlClass} maxLength={300} />}
      </FormField>
      <FormField label="Price" error={errors.price} hint="In dollars per person; leave empty for a free event.">
        {(a) => <input {...a} type="number" inputMode="decimal" min={0} step="0.01" placeholder="Free" value={form.price} onChange={(e) => set('price')(e.target.value)} className={controlClass} />}
      </FormField>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={edit.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
