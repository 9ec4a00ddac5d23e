import { CheckCircle2, ExternalLink, FileSearch, Save } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { FlyerScanResponse } from '../../../contract/scan.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { CategoryChip } from '../events/event-card.tsx';
import { formatEventWhen, useCityConfig } from '../events/events.queries.ts';
import { fromCityInput, priceLabel, toCityInput } from './scan-input.ts';
import { NO_EVENT_TEXT, NO_EVENT_TITLE, SCAN_SUCCESS_TITLE, useCorrectScan, type FlyerCorrectionInput } from './scan.queries.ts';

const controlClass = 'min-h-11 w-full rounded-lg border border-border bg-background px-3 text-base outline-none focus:border-ring aria-[invalid=true]:border-destructive';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="break-words font-medium">{children}</dd>
    </div>
  );
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

interface Shown {
  title: string;
  startDate: string | null;
  venue: string;
  price: number | null;
  isFree: boolean;
}

/** Title, start, venue and price as read: editable while the contributed event awaits review. */
function Corrections({ scanId, shown, timeZone, onSaved }: { scanId: string; shown: Shown; timeZone: string; onSaved: (s: Shown) => void }) {
  const correct = useCorrectScan(scanId);
  const [title, setTitle] = useState(shown.title);
  const [when, setWhen] = useState(toCityInput(shown.startDate, timeZone));
  const [venue, setVenue] = useState(shown.venue);
  const [price, setPrice] = useState(shown.isFree ? '0' : shown.price === null ? '' : String(shown.price));
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const body: FlyerCorrectionInput = {};
    if (title.trim() !== shown.title) body.title = title.trim();
    if (!title.trim()) return setError('Title is required.');
    if (when !== toCityInput(shown.startDate, timeZone)) {
      const iso = fromCityInput(when, timeZone);
      if (!iso) return setError('Enter a valid date and time.');
      body.startDate = iso;
    }
    if (venue.trim() !== shown.venue) body.venue = venue.trim();
    const priceValue = price.trim() === '' ? null : Number(price);
    if (priceValue !== null && (!Number.isFinite(priceValue) || priceValue < 0)) return setError('Enter a price of 0 or more, or leave it empty.');
    const shownPrice = shown.isFree ? 0 : shown.price;
    if (priceValue !== shownPrice) body.price = priceValue;
    if (Object.keys(body).length === 0) return setError('Nothing to save: change a field first.');
    correct.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Corrections saved', description: 'Thanks! A reviewer will see your changes.' });
        onSaved({
          title: body.title ?? shown.title,
          startDate: body.startDate ?? shown.startDate,
          venue: body.venue ?? shown.venue,
          price: body.price !== undefined ? body.price : shown.price,
          isFree: body.price !== undefined ? body.price === 0 : shown.isFree,
        });
      },
      onError: (err) => setError((err instanceof ApiError ? err.serverMessage : undefined) ?? 'Your corrections could not be saved. Please try again.'),
    });
  };

  return (
    <form onSubmit={submit} className="mt-4 space-y-3 border-t border-border pt-4" aria-labelledby="scan-corrections-heading" noValidate>
      <h3 id="scan-corrections-heading" className="font-semibold">
        Something read wrong? Correct it
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Title">{(id) => <input id={id} type="text" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} required className={controlClass} />}</Field>
        <Field label="Starts">{(id) => <input id={id} type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} className={controlClass} />}</Field>
        <Field label="Venue">{(id) => <input id={id} type="text" value={venue} onChange={(e) => setVenue(e.target.value)} maxLength={300} className={controlClass} />}</Field>
        <Field label="Price ($, 0 for free)">
          {(id) => <input id={id} type="number" inputMode="decimal" min={0} step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} className={controlClass} />}
        </Field>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" variant="outline" disabled={correct.isPending}>
        <Save className="h-4 w-4" aria-hidden />
        {correct.isPending ? 'Saving…' : 'Save corrections'}
      </Button>
    </form>
  );
}

/** What a scan linked to an event Townbeat already has says of that event. */
const LINKED = {
  approved: 'Already listed: linked your scan',
  pending: 'Already sent for review: linked your scan',
  rejected: 'Reviewed before and not listed: linked your scan',
} as const;

/** What a scan found: the event it made or matched, what was read, and the corrections form. */
export function ScanResultPanel({ response }: { response: FlyerScanResponse }) {
  const { data: config } = useCityConfig();
  // Until the city's config arrives, dates show in the browser's zone and the form waits.
  const timeZone = config?.city.timeZone;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [response]);
  const { result, extracted, scanId } = response;
  const [shown, setShown] = useState<Shown | null>(null);

  if (!result) {
    return (
      <section aria-labelledby="scan-result-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm" data-testid="scan-result">
        <div className="flex items-start gap-3">
          <FileSearch className="mt-0.5 h-6 w-6 shrink-0 text-muted-foreground" aria-hidden />
          <div>
            <h2 id="scan-result-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
              {NO_EVENT_TITLE}
            </h2>
            <p className="text-sm text-muted-foreground">{NO_EVENT_TEXT}</p>
          </div>
        </div>
        <h3 className="mt-4 text-sm font-semibold">What we could read</h3>
        <pre className="mt-1 max-h-60 overflow-auto rounded-lg bg-muted p-3 font-sans text-sm whitespace-pre-wrap" data-testid="scan-text">
          {extracted?.text.trim() || 'No text could be read.'}
        </pre>
      </section>
    );
  }

  const base: Shown = {
    title: result.event.title,
    startDate: result.event.startDate,
    venue: result.event.venue,
    price: extracted?.price ?? null,
    isFree: extracted?.isFree ?? false,
  };
  const facts = shown ?? base;
  const when = facts.startDate ? formatEventWhen({ startDate: facts.startDate, allDay: false }, timeZone, config?.city.locale) : 'Not found';
  return (
    <section aria-labelledby="scan-result-heading" className="rounded-lg border border-success/40 bg-card p-4 shadow-sm" data-testid="scan-result">
      <div className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 h-6 w-6 shrink-0 text-success" aria-hidden />
        <div className="min-w-0 flex-1">
          <h2 id="scan-result-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-success outline-none">
            {SCAN_SUCCESS_TITLE}
          </h2>
          <p className="text-sm">
            <span className="font-bold text-accent" data-testid="scan-points">
              +{result.pointsEarned} points
            </span>
            {result.badges.length > 0 && <span> · New badge{result.badges.length > 1 ? 's' : ''}: {result.badges.map((b) => b.title).join(', ')}</span>}
          </p>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="scan-is-new">
            {result.event.isNew ? 'New event sent for review' : LINKED[result.event.status]}
          </p>
          {/* Why the points are what they are: a flyer scanned before, the daily limit. */}
          {response.message && (
            <p className="mt-1 text-sm text-muted-foreground" data-testid="scan-message">
              {response.message}
            </p>
          )}
        </div>
      </div>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        <Fact label="Title">
          <span data-testid="scan-title">{facts.title}</span>
        </Fact>
        <Fact label="When">{facts.startDate ? <time dateTime={facts.startDate}>{when}</time> : when}</Fact>
        <Fact label="Venue">{facts.venue || 'Not found'}</Fact>
        <Fact label="Price">{priceLabel(facts.price, facts.isFree)}</Fact>
        <Fact label="Category">
          <CategoryChip category={result.event.category} className="mt-0.5 border border-border" />
        </Fact>
      </dl>
      <Link href={`/events/${result.event.id}`} className="mt-4 inline-flex min-h-11 items-center gap-2 font-semibold text-primary underline-offset-4 hover:underline">
        View event page
        <ExternalLink className="h-4 w-4" aria-hidden />
      </Link>
      {result.event.isNew && scanId && timeZone && <Corrections key={`${scanId}|${timeZone}`} scanId={scanId} shown={facts} timeZone={timeZone} onSaved={setShown} />}
    </section>
  );
}
