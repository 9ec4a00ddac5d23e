import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunSummaryResponse, SourceResponse } from '../../../contract/ingestion.ts';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { buildUser, json, renderApp, stubFetch, type Handler } from '../events/test-helpers.tsx';
import SourcesPage, { parseConfig, relativeTime } from './sources-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

const ADMIN = buildUser({ id: 'a1', role: 'admin' });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function source(over: Partial<SourceResponse> = {}): SourceResponse {
  return {
    id: '00000000-0000-4000-8000-00000000000a',
    name: 'City calendar',
    connector: 'ical',
    url: 'https://city.example/events.ics',
    sourceType: 'municipal',
    trusted: true,
    intervalMinutes: 10,
    enabled: true,
    isDemo: false,
    config: {},
    health: { lastRunAt: null, lastSuccessAt: null, lastError: null, consecutiveFailures: 0, eventsSeen: 0, lastRunSkipped: 0, lastRunHeld: 0, lastRunHeldReason: null, etag: null, lastModified: null },
    ...over,
  };
}

const HEALTHY = source({
  name: 'Portland Parks calendar',
  isDemo: true,
  health: { lastRunAt: ago(5 * 60_000), lastSuccessAt: ago(5 * 60_000), lastError: null, consecutiveFailures: 0, eventsSeen: 1234, lastRunSkipped: 0, lastRunHeld: 0, lastRunHeldReason: null, etag: null, lastModified: null },
});
const FAILING = source({
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'Broken feed',
  connector: 'rss',
  sourceType: 'rss',
  trusted: false,
  intervalMinutes: 15,
  health: { lastRunAt: ago(2 * 3600_000), lastSuccessAt: ago(3 * 86_400_000), lastError: 'HTTP 503 from feed', consecutiveFailures: 4, eventsSeen: 12, lastRunSkipped: 3, lastRunHeld: 0, lastRunHeldReason: null, etag: null, lastModified: null },
});

/** Like Handler, but may answer 'not mine' (undefined) after awaiting. */
type AsyncHandler = (url: URL, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

function api(opts: { list?: SourceResponse[]; run?: RunSummaryResponse; extra?: AsyncHandler } = {}) {
  const list = opts.list ?? [HEALTHY, FAILING];
  const handler: AsyncHandler = async (url, init) => {
    const extra = await opts.extra?.(url, init);
    if (extra) return extra;
    if (url.pathname === '/api/admin/sources' && (init?.method ?? 'GET') === 'GET') return json(list);
    if (url.pathname.endsWith('/run') && init?.method === 'POST') {
      return json(opts.run ?? { status: 'success', fetched: 14, created: 3, updated: 2, merged: 1, rejected: 0, skipped: 0, errors: 0, notes: [] });
    }
    if (url.pathname.endsWith('/runs')) {
      return json([
        {
          id: 'r1',
          trigger: 'manual',
          startedAt: ago(60_000),
          finishedAt: ago(55_000),
          status: 'success',
          fetched: 14,
          created: 3,
          updated: 2,
          merged: 1,
          rejected: 1,
          skipped: 2,
          errors: 0,
          notes: [
            { kind: 'skipped', reason: 'had no title', count: 2, examples: ['row 4', 'row 9'] },
            { kind: 'rejected', reason: 'had a start more than 730 days ahead, beyond the listing horizon: not listed yet, listed by a later run once within it', count: 1, examples: ['Expo 2030'] },
            { kind: 'removed', reason: 'were cancelled by the source: out of lists, each marked cancelled for whoever saved it', count: 1, examples: ['Jazz Night'] },
            { kind: 'relisted', reason: 'were back in the source after being removed, cancelled or postponed: listed again', count: 2, examples: ['Blues Evening', 'Folk Night'] },
          ],
        },
        { id: 'r2', trigger: 'schedule', startedAt: ago(3600_000), finishedAt: ago(3590_000), status: 'error', fetched: 0, created: 0, updated: 0, merged: 0, rejected: 0, skipped: 0, errors: 1, error: 'timeout after 20 s', notes: [] },
      ]);
    }
    return undefined;
  };
  return stubFetch(handler as Handler);
}

const item = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('li')!;

describe('SourcesPage', () => {
  it('lists each source with its settings, a Demo chip and its health', async () => {
    api();
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    expect(screen.getByRole('heading', { level: 1, name: 'Sources' })).toBeTruthy();
    await screen.findByRole('heading', { level: 2, name: 'Portland Parks calendar' });

    const healthy = within(item('Portland Parks calendar'));
    expect(healthy.getByText('ical')).toBeTruthy();
    expect(healthy.getByText('municipal')).toBeTruthy();
    expect(healthy.getByText('every 10 min')).toBeTruthy();
    expect(healthy.getByText('Trusted')).toBeTruthy();
    expect(healthy.getByText('Enabled')).toBeTruthy();
    expect(healthy.getByText('Demo')).toBeTruthy();
    expect(healthy.getAllByText('5 minutes ago')).toHaveLength(2);
    expect(healthy.getByText('1,234')).toBeTruthy();
    expect(healthy.queryByTestId('source-last-error')).toBeNull();
    expect(healthy.getByRole('button', { name: 'Disable' })).toBeTruthy();

    const failing = within(item('Broken feed'));
    expect(failing.queryByText('Demo')).toBeNull();
    // An RSS connector for an RSS source: one chip says it.
    expect(failing.getAllByText('rss')).toHaveLength(1);
    expect(failing.getByText('Needs review')).toBeTruthy();
    expect(failing.getByText('2 hours ago')).toBeTruthy();
    expect(failing.getByText('3 days ago')).toBeTruthy();
    const error = failing.getByTestId('source-last-error');
    expect(error.textContent).toBe('HTTP 503 from feed');
    expect(error.className).toContain('text-destructive');
    expect(failing.getByText('4').className).toContain('text-destructive');
  });

  it('Run now shows a spinner while running, then toasts the summary', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const fetchFn = api({
      extra: async (url, init) => {
        if (!url.pathname.endsWith('/run') || init?.method !== 'POST') return undefined;
        await gate;
        return json({ status: 'success', fetched: 14, created: 3, updated: 2, merged: 1, rejected: 0, skipped: 0, errors: 0, notes: [] });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Portland Parks calendar' });
    fireEvent.click(within(item('Portland Parks calendar')).getByRole('button', { name: 'Run now' }));
    const running = await within(item('Portland Parks calendar')).findByRole('button', { name: 'Running…' });
    expect((running as HTMLButtonElement).disabled).toBe(true);
    release();
    expect((await screen.findAllByText('fetched 14, created 3, updated 2, merged 1, rejected 0')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Run finished: Portland Parks calendar').length).toBeGreaterThan(0);
    await waitFor(() => expect(within(item('Portland Parks calendar')).getByRole('button', { name: 'Run now' })).toBeTruthy());
    const runCalls = fetchFn.mock.calls.filter(([u, i]) => String(u).endsWith(`/api/admin/sources/${HEALTHY.id}/run`) && i?.method === 'POST');
    expect(runCalls).toHaveLength(1);
  });

  it('Run now toasts the error of a failed run', async () => {
    api({ run: { status: 'error', fetched: 0, created: 0, updated: 0, merged: 0, rejected: 0, skipped: 0, errors: 1, error: 'HTTP 404 from feed', notes: [] } });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    fireEvent.click(within(item('Broken feed')).getByRole('button', { name: 'Run now' }));
    expect((await screen.findAllByText('Run failed: Broken feed')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('HTTP 404 from feed').length).toBeGreaterThan(0);
  });

  it('History expands to the last runs', async () => {
    api();
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    const toggle = within(item('Broken feed')).getByRole('button', { name: 'History' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // The card says what the last run left out without opening anything; its link opens History.
    expect(within(item('Broken feed')).getByTestId('source-last-skipped').textContent).toContain('3 entries of the feed could not be used.');
    expect(within(item('Portland Parks calendar')).queryByTestId('source-last-skipped')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(within(item('Broken feed')).getByRole('button', { name: 'See why' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const table = await within(item('Broken feed')).findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('timeout after 20 s')).toBeTruthy();
    // What a run could not use is told with the counts, each reason with examples to find it by.
    expect(within(table).getByText('fetched 14, created 3, updated 2, merged 1, rejected 1, skipped 2')).toBeTruthy();
    const notes = within(table).getByRole('list', { name: 'What the run noted' });
    expect(within(notes).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2 entries had no title (e.g. “row 4”, “row 9”)',
      '1 entry had a start more than 730 days ahead, beyond the listing horizon: not listed yet, listed by a later run once within it (e.g. “Expo 2030”)',
      // What the run did to listed events too, in words that agree with the count.
      '1 entry was cancelled by the source: out of lists, each marked cancelled for whoever saved it (e.g. “Jazz Night”)',
      '2 entries were back in the source after being removed, cancelled or postponed: listed again (e.g. “Blues Evening”, “Folk Night”)',
    ]);
  });

  it('tells how many listed events the last run did not meet and kept listed, and See why opens History', async () => {
    const held = source({ id: '00000000-0000-4000-8000-00000000000c', name: 'Cut-short feed', health: { ...HEALTHY.health, lastRunHeld: 6, lastRunHeldReason: 'partial-read' } });
    api({ list: [HEALTHY, held] });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Cut-short feed' });
    expect(within(item('Cut-short feed')).getByTestId('source-last-held').textContent).toBe(
      '6 events of this source were not in the last run, which did not read the whole source: they are kept until a run that reads it whole lacks them. See why',
    );
    expect(within(item('Portland Parks calendar')).queryByTestId('source-last-held')).toBeNull();
    // A partial read's missing events may simply be unread: no admin removes them by hand.
    expect(within(item('Cut-short feed')).queryByRole('button', { name: /Remove/ })).toBeNull();
    const toggle = within(item('Cut-short feed')).getByRole('button', { name: 'History' });
    fireEvent.click(within(item('Cut-short feed')).getByRole('button', { name: 'See why' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('after a sudden drop, offers to remove the held events now, and asks first', async () => {
    let held = source({ id: '00000000-0000-4000-8000-00000000000d', name: 'Season feed', health: { ...HEALTHY.health, lastRunHeld: 12, lastRunHeldReason: 'sudden-drop' } });
    const posts: string[] = [];
    api({
      extra: (url, init) => {
        if (url.pathname === '/api/admin/sources' && (init?.method ?? 'GET') === 'GET') return json([held]);
        if (!url.pathname.endsWith('/remove-held') || init?.method !== 'POST') return undefined;
        posts.push(url.pathname);
        held = { ...held, health: { ...held.health, lastRunHeld: 0, lastRunHeldReason: null } };
        return json({ removed: 12 });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Season feed' });
    expect(within(item('Season feed')).getByTestId('source-last-held').textContent).toBe(
      '12 events of this source were not in the last run, most of what the source lists at once: they are kept until they have been missing for 6 hours. See why · Remove them now',
    );
    fireEvent.click(within(item('Season feed')).getByRole('button', { name: 'Remove them now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove 12 events now?' });
    expect(dialog.textContent).toContain('they are kept for 6 hours');
    expect(dialog.textContent).toContain('a later run that lists them again brings them back');
    // Cancel sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts).toEqual([]);

    fireEvent.click(within(item('Season feed')).getByRole('button', { name: 'Remove them now' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await screen.findByText('12 events removed');
    expect(posts).toEqual(['/api/admin/sources/00000000-0000-4000-8000-00000000000d/remove-held']);
    await waitFor(() => expect(within(item('Season feed')).queryByTestId('source-last-held')).toBeNull());
  });

  it('Add source checks the config JSON before sending, then shows the server field errors inline', async () => {
    const posts: unknown[] = [];
    api({
      extra: (url, init) => {
        if (url.pathname !== '/api/admin/sources' || init?.method !== 'POST') return undefined;
        posts.push(JSON.parse(String(init.body)));
        return json({ code: 'invalid', message: 'body.name: taken', issues: [{ path: 'body.name', message: 'a source with this name exists' }] }, { status: 400 });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add source' });
    expect((within(dialog).getByLabelText('Interval (minutes)') as HTMLInputElement).value).toBe('10');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Picnics' } });
    fireEvent.change(within(dialog).getByLabelText('Connector'), { target: { value: 'csv' } });
    expect(within(dialog).getByText(/For a CSV URL: \{ mapping: \{ title, start/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Config (JSON)'), { target: { value: '{ "mapping": ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    expect(await within(dialog).findByText(/Config is not valid JSON/)).toBeTruthy();
    expect(posts).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Config (JSON)'), { target: { value: '{ "mapping": { "title": "title", "start": "start" } }' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    expect(await within(dialog).findByText('a source with this name exists')).toBeTruthy();
    expect(posts).toEqual([
      { name: 'Picnics', connector: 'csv', sourceType: 'municipal', intervalMinutes: 10, trusted: false, enabled: true, config: { mapping: { title: 'title', start: 'start' } } },
    ]);
  });
});

describe('CSV upload', () => {
  /** The Add source dialog with the CSV connector chosen; `posts` collects what it sends. */
  async function openCsvSource(name: string) {
    const posts: Record<string, unknown>[] = [];
    api({
      extra: (url, init) => {
        if (url.pathname !== '/api/admin/sources' || init?.method !== 'POST') return undefined;
        posts.push(JSON.parse(String(init.body)));
        return json(source({ name, connector: 'csv' }), { status: 201 });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add source' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(within(dialog).getByLabelText('Connector'), { target: { value: 'csv' } });
    return { dialog, posts };
  }

  it('reads the header, guesses the mapping, asks for what is missing, and sends the rows with the mapping', async () => {
    const { dialog, posts } = await openCsvSource('Picnics');
    const text = '\uFEFF"Event Name";Location;"Notes; extra"\nPicnic;Laurelhurst Park;bring food\nSwap;Kerns;\n';
    fireEvent.change(within(dialog).getByLabelText('Upload a CSV file'), { target: { files: [new File([text], 'picnics.csv', { type: 'text/csv' })] } });
    expect((await within(dialog).findByTestId('csv-file')).textContent).toContain('2 rows, 3 columns');
    const select = (label: string) => within(dialog).getByLabelText(label) as HTMLSelectElement;
    expect(select('Title column *').value).toBe('Event Name');
    expect(select('Venue column').value).toBe('Location');
    expect(select('Start column *').value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    expect(await within(dialog).findByText('Choose the column for Start')).toBeTruthy();
    expect(posts).toHaveLength(0);

    fireEvent.change(select('Start column *'), { target: { value: 'Notes; extra' } });
    fireEvent.change(select('Dates like 03/04/2026 are'), { target: { value: 'us' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.config).toEqual({ csv: text.replace('\uFEFF', ''), mapping: { title: 'Event Name', start: 'Notes; extra', venue: 'Location' }, dateFormat: 'us' });
  });

  it('reads a CSV saved by a spreadsheet as Windows-1252, accents and euro sign intact', async () => {
    const { dialog, posts } = await openCsvSource('Fêtes');
    const text = 'Événement;Début;Prix\nFête de la musique – Café du Parc;2026-06-21 18:00;5 €\n';
    // The bytes Excel on Windows writes: one byte a character, 0x96 for the dash, 0x80 for the euro.
    const bytes = Uint8Array.from([...text].map((c) => ({ '–': 0x96, '€': 0x80 })[c] ?? c.charCodeAt(0)));
    fireEvent.change(within(dialog).getByLabelText('Upload a CSV file'), { target: { files: [new File([bytes], 'fetes.csv', { type: 'text/csv' })] } });
    expect((await within(dialog).findByTestId('csv-file')).textContent).toContain('1 row, 3 columns');
    const select = (label: string) => within(dialog).getByLabelText(label) as HTMLSelectElement;
    expect([...select('Title column *').options].map((o) => o.value)).toEqual(expect.arrayContaining(['Événement', 'Début', 'Prix']));
    fireEvent.change(select('Title column *'), { target: { value: 'Événement' } });
    fireEvent.change(select('Start column *'), { target: { value: 'Début' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect((posts[0]!.config as { csv: string }).csv).toBe(text);
  });

  it('refuses a file over 10 MB before sending it', async () => {
    api();
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add source' });
    fireEvent.change(within(dialog).getByLabelText('Connector'), { target: { value: 'csv' } });
    const huge = new File(['x'], 'huge.csv');
    Object.defineProperty(huge, 'size', { value: 11 * 1024 * 1024 });
    fireEvent.change(within(dialog).getByLabelText('Upload a CSV file'), { target: { files: [huge] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('huge.csv is larger than 10 MB');
  });
});

describe('SourcesPage controls', () => {
  it('Disable patches enabled; Delete asks first, then removes the source', async () => {
    let list = [HEALTHY, FAILING];
    const calls: { method: string; path: string; body?: unknown }[] = [];
    api({
      extra: (url, init) => {
        const method = init?.method ?? 'GET';
        if (method !== 'GET') calls.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        if (url.pathname === '/api/admin/sources' && method === 'GET') return json(list);
        const id = url.pathname.split('/')[4];
        if (method === 'PATCH') {
          list = list.map((s) => (s.id === id ? { ...s, ...(JSON.parse(String(init!.body)) as Partial<SourceResponse>) } : s));
          return json(list.find((s) => s.id === id));
        }
        if (method === 'DELETE') {
          list = list.filter((s) => s.id !== id);
          return new Response(null, { status: 204 });
        }
        return undefined;
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'Broken feed' });
    fireEvent.click(within(item('Broken feed')).getByRole('button', { name: 'Disable' }));
    expect(await within(item('Broken feed')).findByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(item('Broken feed')).getByText('Disabled')).toBeTruthy();
    expect(calls).toEqual([{ method: 'PATCH', path: `/api/admin/sources/${FAILING.id}`, body: { enabled: false } }]);

    fireEvent.click(within(item('Broken feed')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete source?' });
    expect(calls).toHaveLength(1);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'Broken feed' })).toBeNull());
    expect(screen.getAllByText('Source deleted').length).toBeGreaterThan(0);
    expect(calls[1]).toEqual({ method: 'DELETE', path: `/api/admin/sources/${FAILING.id}`, body: undefined });
    expect(screen.getByRole('heading', { level: 2, name: 'Portland Parks calendar' })).toBeTruthy();
  });

  it('Edit sends the changed settings and the config object, keeping masked secrets as they are', async () => {
    const secretive = source({ connector: 'meetup', sourceType: 'meetup', name: 'PDX Meetups', config: { token: '••••••', groupUrlname: 'pdx-hikers' } });
    const patches: unknown[] = [];
    api({
      list: [secretive],
      extra: (_url, init) => {
        if (init?.method !== 'PATCH') return undefined;
        patches.push(JSON.parse(String(init.body)));
        return json({ ...secretive, intervalMinutes: 5 });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: 'PDX Meetups' });
    fireEvent.click(within(item('PDX Meetups')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit source' });
    fireEvent.change(within(dialog).getByLabelText('Interval (minutes)'), { target: { value: '16' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/between 1 and 15/)).toBeTruthy();
    expect(patches).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Interval (minutes)'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit source' })).toBeNull());
    expect(patches).toEqual([
      {
        name: 'PDX Meetups',
        sourceType: 'meetup',
        intervalMinutes: 5,
        trusted: true,
        enabled: true,
        config: { token: '••••••', groupUrlname: 'pdx-hikers' },
      },
    ]);
  });

  it('Edit leaves out a URL it did not change (a demo source keeps its demo:// address) and shows the server refusing a cleared one at the URL field', async () => {
    const demo = source({ name: 'PDX Music Venues (demo)', isDemo: true, url: 'demo://feeds/pdx-music-venues.ics' });
    const refusal = 'url is required for an iCalendar source';
    const patches: Record<string, unknown>[] = [];
    api({
      list: [demo],
      extra: (_url, init) => {
        if (init?.method !== 'PATCH') return undefined;
        const patch = JSON.parse(String(init.body)) as Record<string, unknown>;
        patches.push(patch);
        if (patch.url === null) return json({ code: 'invalid', message: refusal, issues: [{ path: 'body.url', message: refusal }] }, { status: 400 });
        return json({ ...demo, ...patch });
      },
    });
    renderApp(<SourcesPage />, { path: '/admin/sources', user: ADMIN });
    await screen.findByRole('heading', { level: 2, name: demo.name });
    const edit = async () => {
      fireEvent.click(within(item(demo.name)).getByRole('button', { name: 'Edit' }));
      return screen.findByRole('dialog', { name: 'Edit source' });
    };

    let dialog = await edit();
    fireEvent.click(within(dialog).getByLabelText('Enabled'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit source' })).toBeNull());
    expect(patches).toEqual([{ name: demo.name, sourceType: 'municipal', intervalMinutes: 10, trusted: true, enabled: false, config: {} }]);

    dialog = await edit();
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const shown = await within(dialog).findByText(refusal);
    expect(within(dialog).getByLabelText('URL').getAttribute('aria-describedby')).toContain(shown.id);
    expect(patches[1]).toMatchObject({ url: null });
  });
});

describe('helpers', () => {
  it('relativeTime reads naturally', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(relativeTime('2026-05-01T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-05-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-04-30T12:00:00Z', now)).toBe('yesterday');
  });
  it('parseConfig accepts objects only', () => {
    expect(parseConfig('')).toEqual({ value: {} });
    expect(parseConfig('{"a":1}')).toEqual({ value: { a: 1 } });
    expect('error' in parseConfig('[1]')).toBe(true);
    expect('error' in parseConfig('{')).toBe(true);
  });
});
