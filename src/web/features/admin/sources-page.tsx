import { ChevronDown, ChevronRight, Loader2, Pencil, Play, Plus, Power, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { OFFERED_SOURCE_TYPES } from '../../../contract/events.ts';
import { CONNECTOR_IDS, SourceCreate, SourcePatch, SUDDEN_DROP_HOLD_HOURS, type RunSummaryResponse, type SourceResponse } from '../../../contract/ingestion.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Chip } from '../../components/ui/chip.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { stackCell, StackTable } from '../../components/ui/stack-table.tsx';
import { formatCityTime } from '../../lib/city-time.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { FormError, FormField, inputClass } from './admin-overlay.tsx';
import { CsvUpload, mappingError, readCsvFile, type CsvAttachment } from './csv-upload.tsx';
import {
  errorText,
  runNoteText,
  runSummaryText,
  serverFieldErrors,
  useCreateSource,
  useDeleteSource,
  useRemoveHeld,
  useRunSource,
  useSourceRuns,
  useSources,
  useUpdateSource,
  type SourceCreateInput,
  type SourcePatchInput,
  type SourceRun,
} from './admin.queries.ts';

type ConnectorId = (typeof CONNECTOR_IDS)[number];

/** What each connector needs: shown under the config box, and used as the new-source example. */
export const CONNECTOR_HINTS: Record<ConnectorId, { url: string; config: string; example: Record<string, unknown> }> = {
  ical: { url: 'The iCalendar (.ics) feed URL.', config: 'Usually empty: {}', example: {} },
  rss: { url: 'The RSS or Atom feed URL.', config: 'Usually empty: {}', example: {} },
  jsonld: { url: 'A web page with schema.org Event data.', config: 'Usually empty: {}', example: {} },
  eventbrite: { url: 'Not needed.', config: 'Needs { token, organizerId } (or venueId).', example: { token: '', organizerId: '' } },
  meetup: { url: 'Not needed.', config: 'Needs { token, groupUrlname }.', example: { token: '', groupUrlname: '' } },
  ticketmaster: { url: 'Not needed.', config: 'Needs { apiKey, city } (optionally stateCode, countryCode, latlong, radius).', example: { apiKey: '', city: '' } },
  socrata: {
    url: 'The open-data portal, e.g. https://data.example.gov.',
    config: 'Needs { dataset, mapping: { title, start, ... } }: the dataset id and which columns hold each field.',
    example: { dataset: '', mapping: { title: '', start: '' } },
  },
  ckan: {
    url: 'The CKAN portal, e.g. https://data.example.org.',
    config: 'Needs { resourceId, mapping: { title, start, ... } }.',
    example: { resourceId: '', mapping: { title: '', start: '' } },
  },
  gancio: { url: 'The Gancio instance, e.g. https://gancio.example.org.', config: 'Usually empty: {}', example: {} },
  mobilizon: { url: 'The Mobilizon instance, e.g. https://mobilizon.example.org.', config: 'Optionally { groupSlug } to follow one group.', example: {} },
  csv: {
    url: 'A CSV file URL, or leave empty and upload the file below.',
    config: 'An uploaded file brings its own mapping (chosen above). For a CSV URL: { mapping: { title, start, ... } }, which column holds each field.',
    example: { mapping: { title: 'title', start: 'start' } },
  },
};

/** The sourceType a connector's events usually carry (the spec's values where they fit). */
const DEFAULT_SOURCE_TYPE: Record<ConnectorId, string> = {
  ical: 'ical',
  rss: 'rss',
  jsonld: 'web',
  eventbrite: 'eventbrite',
  meetup: 'meetup',
  ticketmaster: 'ticketmaster',
  socrata: 'municipal',
  ckan: 'municipal',
  gancio: 'gancio',
  mobilizon: 'mobilizon',
  csv: 'municipal',
};

const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** '5 minutes ago', 'yesterday', 'in 2 hours' ... */
export function relativeTime(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 604_800],
    ['month', 2_592_000],
    ['year', 31_536_000],
  ];
  let chosen = units[0]!;
  for (const u of units) if (abs >= u[1] * 0.9) chosen = u;
  return rtf.format(Math.round(seconds / chosen[1]), chosen[0]);
}

/** The current time, refreshed every minute so relative times move on. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

function When({ iso, now, empty = 'Never' }: { iso: string | null; now: number; empty?: string }) {
  const timeZone = useCityTimeZone();
  if (!iso) return <span>{empty}</span>;
  return (
    <time dateTime={iso} title={formatCityTime(iso, timeZone, { dateStyle: 'medium', timeStyle: 'short' })}>
      {relativeTime(iso, now)}
    </time>
  );
}

/** The toast after a run: its counts, or why it failed. */
export function toastRun(name: string, r: RunSummaryResponse) {
  if (r.status === 'error') {
    toast({ title: `Run failed: ${name}`, description: r.error ?? runSummaryText(r), variant: 'destructive' });
  } else {
    toast({ title: r.status === 'not_modified' ? `Nothing new: ${name}` : `Run finished: ${name}`, description: runSummaryText(r) });
  }
}

/** /admin/sources: where events come from, how each source is doing, and the controls to run or change them. */
export default function SourcesPage() {
  const sources = useSources();
  const now = useNow();
  const [adding, setAdding] = useState(false);

  let body: ReactNode;
  if (sources.isPending) body = <InlineLoading label="Loading sources" />;
  else if (sources.isError)
    body = (
      <div role="alert" className="rounded-lg border border-border bg-card p-4">
        <p className="text-destructive">Could not load the sources.</p>
        <Button variant="outline" className="mt-2" onClick={() => void sources.refetch()}>
          Try again
        </Button>
      </div>
    );
  else if (sources.data.length === 0)
    body = (
      <div className="rounded-lg border border-dashed border-border bg-card p-8 text-center">
        <p className="font-semibold">No sources yet</p>
        <p className="mt-1 text-sm text-muted-foreground">Add a calendar feed, an events API or an open-data set to start gathering events.</p>
      </div>
    );
  else
    body = (
      <ul className="grid grid-cols-1 gap-4" aria-label="Sources">
        {sources.data.map((s) => (
          <SourceItem key={s.id} source={s} now={now} />
        ))}
      </ul>
    );

  return (
    <section aria-labelledby="sources-heading">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm text-muted-foreground">
            <Link href="/admin" className="hover:underline">
              Admin
            </Link>{' '}
            / Sources
          </p>
          <h1 id="sources-heading" className="text-3xl font-bold">
            Sources
          </h1>
          <p className="mt-1 text-muted-foreground">Every feed is polled on its own interval (at most every 15 minutes). Run one now to see what it brings.</p>
        </div>
        <Button onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Add source
        </Button>
      </div>
      <div className="mt-6">{body}</div>
      <Dialog open={adding} onOpenChange={setAdding} title="Add source" wide>
        <SourceForm mode="create" onDone={() => setAdding(false)} />
      </Dialog>
    </section>
  );
}

function SourceItem({ source, now }: { source: SourceResponse; now: number }) {
  const run = useRunSource();
  const update = useUpdateSource();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [history, setHistory] = useState(false);
  const [removingHeld, setRemovingHeld] = useState(false);
  const h = source.health;
  const headingId = `source-${source.id}`;

  function runNow() {
    run.mutate(source.id, {
      onSuccess: (r) => toastRun(source.name, r),
      onError: (err) =>
        toast({ title: `Run failed: ${source.name}`, description: errorText(err), variant: 'destructive' }),
    });
  }

  function toggleEnabled() {
    const enabled = !source.enabled;
    update.mutate(
      { id: source.id, patch: { enabled } },
      {
        onSuccess: () => toast({ title: enabled ? 'Source enabled' : 'Source disabled', description: source.name }),
        onError: (err) => toast({ title: 'Error', description: errorText(err), variant: 'destructive' }),
      },
    );
  }

  return (
    <li aria-labelledby={headingId} data-testid="source-item" className="min-w-0 rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold">
            {source.name}
          </h2>
          <div className="mt-1 flex flex-wrap gap-1.5">
            <Chip>{source.connector}</Chip>
            {/* The kind of source shown on events, when it says more than the connector. */}
            {source.sourceType !== source.connector && <Chip>{source.sourceType}</Chip>}
            <Chip>every {source.intervalMinutes} min</Chip>
            {source.trusted ? <Chip tone="success">Trusted</Chip> : <Chip>Needs review</Chip>}
            {source.enabled ? <Chip tone="success">Enabled</Chip> : <Chip tone="destructive">Disabled</Chip>}
            {source.isDemo && <Chip tone="accent">Demo</Chip>}
          </div>
          {source.url && <p className="mt-1 truncate text-xs text-muted-foreground">{source.url}</p>}
        </div>
        <div className="flex flex-wrap gap-1">
          <Button variant="primary" className="px-3" onClick={runNow} disabled={run.isPending} aria-busy={run.isPending || undefined}>
            {run.isPending ? <Loader2 className="h-4 w-4 animate-spin motion-reduce:animate-none" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
            {run.isPending ? 'Running…' : 'Run now'}
          </Button>
          <Button variant="outline" className="px-3" onClick={() => setEditing(true)}>
            <Pencil className="h-4 w-4" aria-hidden />
            Edit
          </Button>
          <Button variant="outline" className="px-3" onClick={toggleEnabled} disabled={update.isPending}>
            <Power className="h-4 w-4" aria-hidden />
            {source.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="outline" className="px-3 text-destructive" onClick={() => setDeleting(true)}>
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete
          </Button>
        </div>
      </div>

      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4" data-testid="source-health">
        <div>
          <dt className="text-xs text-muted-foreground">Last run</dt>
          <dd>
            <When iso={h.lastRunAt} now={now} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Last success</dt>
          <dd>
            <When iso={h.lastSuccessAt} now={now} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Events seen</dt>
          <dd>{h.eventsSeen.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Consecutive failures</dt>
          <dd className={h.consecutiveFailures > 0 ? 'font-semibold text-destructive' : ''}>{h.consecutiveFailures}</dd>
        </div>
        {h.lastRunSkipped > 0 && (
          <div className="col-span-full">
            <dt className="text-xs text-muted-foreground">Left out by the last run</dt>
            <dd data-testid="source-last-skipped">
              {h.lastRunSkipped.toLocaleString('en-US')} {h.lastRunSkipped === 1 ? 'entry' : 'entries'} of the feed could not be used.{' '}
              <button type="button" className="font-medium text-primary underline-offset-2 hover:underline" onClick={() => setHistory(true)}>
                See why
              </button>
            </dd>
          </div>
        )}
        {h.lastRunHeld > 0 && (
          <div className="col-span-full">
            <dt className="text-xs text-muted-foreground">Kept listed by the last run</dt>
            <dd data-testid="source-last-held">
              {heldText(h.lastRunHeld, h.lastRunHeldReason)}{' '}
              <button type="button" className="font-medium text-primary underline-offset-2 hover:underline" onClick={() => setHistory(true)}>
                See why
              </button>
              {h.lastRunHeldReason === 'sudden-drop' && (
                <>
                  <span aria-hidden className="text-muted-foreground">
                    {' · '}
                  </span>
                  <button type="button" className="font-medium text-destructive underline-offset-2 hover:underline" onClick={() => setRemovingHeld(true)}>
                    Remove {h.lastRunHeld === 1 ? 'it' : 'them'} now
                  </button>
                </>
              )}
            </dd>
          </div>
        )}
        {h.lastError && (
          <div className="col-span-full">
            <dt className="text-xs text-muted-foreground">Last error</dt>
            <dd className="break-words text-destructive" data-testid="source-last-error">
              {h.lastError}
            </dd>
          </div>
        )}
      </dl>

      <button
        type="button"
        aria-expanded={history}
        aria-controls={`${headingId}-history`}
        onClick={() => setHistory((v) => !v)}
        className="mt-3 inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-medium text-primary hover:bg-muted"
      >
        {history ? <ChevronDown className="h-4 w-4" aria-hidden /> : <ChevronRight className="h-4 w-4" aria-hidden />}
        History
      </button>
      {history && (
        <div id={`${headingId}-history`}>
          <RunHistory id={source.id} now={now} />
        </div>
      )}

      <Dialog open={editing} onOpenChange={setEditing} title="Edit source" description={source.name} wide>
        <SourceForm mode="edit" source={source} onDone={() => setEditing(false)} />
      </Dialog>
      <DeleteSourceDialog source={source} open={deleting} onOpenChange={setDeleting} />
      <RemoveHeldDialog source={source} open={removingHeld} onOpenChange={setRemovingHeld} />
    </li>
  );
}

/**
 * What the card says of the source's events to come the last run did not meet (listed ones and
 * ones waiting for review alike), and until when they are kept as they are.
 */
function heldText(n: number, reason: SourceResponse['health']['lastRunHeldReason']): string {
  const one = n === 1;
  const what = `${n.toLocaleString('en-US')} ${one ? 'event' : 'events'} of this source ${one ? 'was' : 'were'} not in the last run`;
  if (reason === 'sudden-drop') return `${what}, most of what the source lists at once: ${one ? 'it is' : 'they are'} kept until ${one ? 'it has' : 'they have'} been missing for ${SUDDEN_DROP_HOLD_HOURS} hours.`;
  if (reason === 'partial-read') return `${what}, which did not read the whole source: ${one ? 'it is' : 'they are'} kept until a run that reads it whole lacks ${one ? 'it' : 'them'}.`;
  return `${what} and ${one ? 'is' : 'are'} kept until a later run shows ${one ? 'it is' : 'they are'} gone.`;
}

const HISTORY_SHOWN = 10;
const HISTORY_COLUMNS = ['Started', 'Trigger', 'Status', 'Result'] as const;

function RunHistory({ id, now }: { id: string; now: number }) {
  const runs = useSourceRuns(id);
  if (runs.isPending) return <InlineLoading label="Loading run history" />;
  if (runs.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the run history.
      </p>
    );
  if (runs.data.length === 0) return <p className="py-2 text-sm text-muted-foreground">No runs yet.</p>;
  return (
    // On a phone each run stacks, its result under when, how and how it went.
    <div className="mt-1 rounded-lg border border-border">
      <StackTable columns={HISTORY_COLUMNS} caption="Last runs">
        {runs.data.slice(0, HISTORY_SHOWN).map((r: SourceRun) => (
          <tr role="row" key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 md:table-row md:p-0">
            <td role="cell" className={`whitespace-nowrap ${stackCell}`}>
              <When iso={r.startedAt} now={now} />
            </td>
            <td role="cell" className={`text-muted-foreground md:text-foreground ${stackCell}`}>
              {r.trigger}
            </td>
            <td role="cell" className={stackCell}>
              {r.status === 'error' ? <Chip tone="destructive">error</Chip> : r.status === 'not_modified' ? <Chip>not modified</Chip> : <Chip tone="success">success</Chip>}
            </td>
            <td role="cell" className={`basis-full ${stackCell}`}>
              <span>
                {runSummaryText(r)}
                {r.errors > 0 && `, errors ${r.errors}`}
              </span>
              {r.error && <span className="block text-destructive">{r.error}</span>}
              {r.notes.length > 0 && (
                <ul aria-label="What the run noted" className="mt-1 list-disc space-y-0.5 pl-4 text-xs text-muted-foreground">
                  {r.notes.map((n) => (
                    <li key={`${n.kind}:${n.reason}`}>{runNoteText(n)}</li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </StackTable>
    </div>
  );
}

function DeleteSourceDialog({ source, open, onOpenChange }: { source: SourceResponse; open: boolean; onOpenChange: (o: boolean) => void }) {
  const del = useDeleteSource();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Delete source?" description={`“${source.name}” and its run history will be removed. Events it already brought in stay.`}>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={del.isPending}>
          Cancel
        </Button>
        <Button
          variant="destructive"
          disabled={del.isPending}
          onClick={() => del.mutate({ id: source.id, name: source.name }, { onSuccess: () => onOpenChange(false) })}
        >
          {del.isPending ? 'Deleting…' : 'Delete'}
        </Button>
      </div>
    </Dialog>
  );
}

/** Confirms a held sudden drop: its events are marked removed by the source now rather than after the hold. */
function RemoveHeldDialog({ source, open, onOpenChange }: { source: SourceResponse; open: boolean; onOpenChange: (o: boolean) => void }) {
  const remove = useRemoveHeld();
  const n = source.health.lastRunHeld;
  const events = `${n.toLocaleString('en-US')} ${n === 1 ? 'event' : 'events'}`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Remove ${events} now?`}
      description={`Most of what “${source.name}” lists went missing at once, which is usually a feed served cut short, so ${n === 1 ? 'it is' : 'they are'} kept for ${SUDDEN_DROP_HOLD_HOURS} hours. If you know ${n === 1 ? 'it is' : 'they are'} gone, ${n === 1 ? 'it is' : 'they are'} marked removed by the source now. Whoever saved one still finds its page, and a later run that lists ${n === 1 ? 'it' : 'them'} again brings ${n === 1 ? 'it' : 'them'} back.`}
    >
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate({ id: source.id, name: source.name }, { onSuccess: () => onOpenChange(false) })}>
          {remove.isPending ? 'Removing…' : 'Remove'}
        </Button>
      </div>
    </Dialog>
  );
}

interface FormState {
  name: string;
  connector: ConnectorId;
  url: string;
  sourceType: string;
  intervalMinutes: string;
  trusted: boolean;
  enabled: boolean;
  config: string;
}

const isConnector = (c: string): c is ConnectorId => (CONNECTOR_IDS as readonly string[]).includes(c);

/** Parses the config box: a JSON object, or an error message. */
export function parseConfig(text: string): { value: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { error: `Config is not valid JSON: ${(err as Error).message}` };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'Config must be a JSON object, like { "key": "value" }' };
  return { value: parsed as Record<string, unknown> };
}

function SourceForm(props: { mode: 'create'; onDone: () => void } | { mode: 'edit'; source: SourceResponse; onDone: () => void }) {
  const source = props.mode === 'edit' ? props.source : null;
  const [form, setForm] = useState<FormState>(() =>
    source
      ? {
          name: source.name,
          connector: isConnector(source.connector) ? source.connector : 'ical',
          url: source.url ?? '',
          sourceType: source.sourceType,
          intervalMinutes: String(source.intervalMinutes),
          trusted: source.trusted,
          enabled: source.enabled,
          config: JSON.stringify(source.config, null, 2),
        }
      : { name: '', connector: 'ical', url: '', sourceType: DEFAULT_SOURCE_TYPE.ical, intervalMinutes: '10', trusted: false, enabled: true, config: '{}' },
  );
  const [typeTouched, setTypeTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A CSV file chosen in the form: sent as config.csv with its mapping and date format.
  const [csv, setCsv] = useState<CsvAttachment | null>(null);
  const isCsv = (source?.connector ?? form.connector) === 'csv';

  async function chooseCsv(file: File) {
    const read = await readCsvFile(file);
    if ('error' in read) {
      setErrors((e) => ({ ...e, csv: read.error }));
      return;
    }
    setErrors(({ csv: _gone, ...rest }) => rest);
    setCsv(read);
  }
  const create = useCreateSource();
  const update = useUpdateSource();
  const pending = create.isPending || update.isPending;
  const hint = CONNECTOR_HINTS[form.connector];
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setForm((f) => ({ ...f, [k]: v }));

  function chooseConnector(c: ConnectorId) {
    setForm((f) => {
      const configUntouched = !f.config.trim() || f.config.trim() === '{}' || Object.values(CONNECTOR_HINTS).some((h) => f.config === JSON.stringify(h.example, null, 2));
      return {
        ...f,
        connector: c,
        sourceType: typeTouched ? f.sourceType : DEFAULT_SOURCE_TYPE[c],
        config: configUntouched ? JSON.stringify(CONNECTOR_HINTS[c].example, null, 2) : f.config,
      };
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    const config = parseConfig(form.config);
    if ('error' in config) found.config = config.error;
    const interval = Number(form.intervalMinutes);
    if (!Number.isInteger(interval) || interval < 1 || interval > 15) found.intervalMinutes = 'Interval must be a whole number of minutes between 1 and 15';
    let configValue = 'value' in config ? config.value : {};
    if (isCsv && csv) {
      const missing = mappingError(csv.mapping);
      if (missing) found.csv = missing;
      const mapping = Object.fromEntries(Object.entries(csv.mapping).filter(([, v]) => v));
      configValue = { ...configValue, csv: csv.text, mapping, dateFormat: csv.dateFormat };
    }
    const base = {
      name: form.name.trim(),
      sourceType: form.sourceType.trim(),
      intervalMinutes: interval,
      trusted: form.trusted,
      config: configValue,
    };
    const url = form.url.trim();
    let body: SourceCreateInput | SourcePatchInput;
    if (props.mode === 'create') {
      body = { ...base, connector: form.connector, enabled: true, ...(url ? { url } : {}) };
      const parsed = SourceCreate.safeParse(body);
      if (!parsed.success) for (const i of parsed.error.issues) found[String(i.path[0] ?? 'form')] ??= i.message;
    } else {
      // The URL only when changed: a demo source's demo:// address is not one an admin may set.
      body = { ...base, enabled: form.enabled, ...(url !== (props.source.url ?? '') ? { url: url || null } : {}) };
      const parsed = SourcePatch.safeParse(body);
      if (!parsed.success) for (const i of parsed.error.issues) found[String(i.path[0] ?? 'form')] ??= i.message;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    const onError = (err: Error) => setErrors(serverFieldErrors(err));
    if (props.mode === 'create') {
      create.mutate(body as SourceCreateInput, {
        onSuccess: (s) => {
          toast({ title: 'Source added', description: s.name });
          props.onDone();
        },
        onError,
      });
    } else {
      update.mutate(
        { id: props.source.id, patch: body as SourcePatchInput },
        {
          onSuccess: (s) => {
            toast({ title: 'Source saved', description: s.name });
            props.onDone();
          },
          onError,
        },
      );
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField label="Name" error={errors.name}>
          {(a) => <input {...a} type="text" value={form.name} maxLength={120} onChange={(e) => set('name', e.target.value)} className={inputClass} />}
        </FormField>
        {props.mode === 'create' ? (
          <FormField label="Connector" error={errors.connector}>
            {(a) => (
              <select {...a} value={form.connector} onChange={(e) => isConnector(e.target.value) && chooseConnector(e.target.value)} className={inputClass}>
                {CONNECTOR_IDS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        ) : (
          <div className="mb-4">
            <p className="mb-1 text-sm font-medium">Connector</p>
            <p className="flex min-h-11 items-center text-base">{source?.connector}</p>
          </div>
        )}
      </div>
      <FormField label="URL" error={errors.url} hint={hint.url}>
        {(a) => <input {...a} type="url" inputMode="url" value={form.url} placeholder="https://" onChange={(e) => set('url', e.target.value)} className={inputClass} />}
      </FormField>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField label="Source type" error={errors.sourceType} hint="Lower-case; shown on events and used by the source filter.">
          {(a) => (
            <>
              <input
                {...a}
                type="text"
                list="source-type-options"
                value={form.sourceType}
                onChange={(e) => {
                  setTypeTouched(true);
                  set('sourceType', e.target.value);
                }}
                className={inputClass}
              />
              <datalist id="source-type-options">
                {[...new Set([...OFFERED_SOURCE_TYPES, ...Object.values(DEFAULT_SOURCE_TYPE)])].map((t) => (
                  <option key={t} value={t} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <FormField label="Interval (minutes)" error={errors.intervalMinutes} hint="How often it is polled: 1 to 15.">
          {(a) => <input {...a} type="number" min={1} max={15} step={1} value={form.intervalMinutes} onChange={(e) => set('intervalMinutes', e.target.value)} className={inputClass} />}
        </FormField>
      </div>
      <div className="mb-4 flex flex-wrap gap-x-6 gap-y-2">
        <label className="inline-flex min-h-11 items-center gap-2 text-sm">
          <input type="checkbox" checked={form.trusted} onChange={(e) => set('trusted', e.target.checked)} className="h-5 w-5 accent-[var(--primary)]" />
          Trusted (confidently classified events skip review)
        </label>
        {props.mode === 'edit' && (
          <label className="inline-flex min-h-11 items-center gap-2 text-sm">
            <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} className="h-5 w-5 accent-[var(--primary)]" />
            Enabled
          </label>
        )}
      </div>
      {isCsv && <CsvUpload attachment={csv} error={errors.csv} onChoose={(f) => void chooseCsv(f)} onChange={setCsv} onRemove={() => setCsv(null)} />}
      <FormField
        label="Config (JSON)"
        error={errors.config}
        hint={
          <>
            {hint.config}
            {props.mode === 'edit' && ' Masked values (••••••) keep the stored secret.'}
          </>
        }
      >
        {(a) => (
          <textarea
            {...a}
            value={form.config}
            onChange={(e) => set('config', e.target.value)}
            rows={8}
            spellCheck={false}
            className="w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-sm outline-none focus:border-ring aria-[invalid=true]:border-destructive"
          />
        )}
      </FormField>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="outline" onClick={props.onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : props.mode === 'create' ? 'Add source' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
