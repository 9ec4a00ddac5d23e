import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PENDING_PAGE, type EventSummary } from '../../../contract/events.ts';
import type { SourceResponse } from '../../../contract/ingestion.ts';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { buildEvent, buildSaved, buildUser, json, renderApp, stubFetch, type Handler } from '../events/test-helpers.tsx';
import { fromZonedInput, toZonedInput } from '../../lib/city-time.ts';
import { AdminOverlay } from './admin-overlay.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

const ADMIN = buildUser({ id: 'a1', email: 'admin@example.test', role: 'admin' });

function source(over: Partial<SourceResponse> = {}): SourceResponse {
  return {
    id: 's1',
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

/** A small imitation of the admin API: a pending list that approve/reject/patch really change. */
function adminApi(opts: { pending?: EventSummary[]; aiStatus?: 'missing' | number; llm?: string; extra?: Handler } = {}) {
  let pending = [...(opts.pending ?? [])];
  const fetchFn = stubFetch((url, init) => {
    const extra = opts.extra?.(url, init);
    if (extra) return extra;
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/events/stats') return json({ totalEvents: 128, todayEvents: 7, activeSources: 5, coverage: 85 });
    if (url.pathname === '/api/admin/ai-status') {
      if (opts.aiStatus === 'missing') return json({ code: 'not_found', message: 'Not Found' }, { status: 404 });
      return json({ model: 'naive-bayes', accuracy: opts.aiStatus ?? 0.9416, macroF1: 0.93, evaluatedOn: '240 held-out events', llm: opts.llm ? { model: opts.llm } : null });
    }
    if (url.pathname === '/api/admin/sources') return json([source(), source({ id: 's2', enabled: false }), source({ id: 's3' })]);
    if (url.pathname === '/api/admin/events/pending') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return json(pending.slice(offset, offset + PENDING_PAGE), { headers: { 'x-total-count': String(pending.length) } });
    }
    const m = /^\/api\/admin\/events\/([^/]+)(?:\/(approve|reject))?$/.exec(url.pathname);
    if (m) {
      const e = pending.find((x) => x.id === m[1]);
      if (!e) return json({ code: 'not_found', message: 'Event not found' }, { status: 404 });
      if (method === 'POST' && m[2]) {
        pending = pending.filter((x) => x.id !== e.id);
        return json({ ...e, status: m[2] === 'approve' ? 'approved' : 'rejected' });
      }
      if (method === 'PATCH') {
        const patch = JSON.parse(String(init?.body)) as Partial<EventSummary>;
        const next = { ...e, ...patch };
        pending = pending.map((x) => (x.id === e.id ? next : x));
        return json(next);
      }
    }
    return undefined;
  });
  return fetchFn;
}

const callsTo = (fn: ReturnType<typeof stubFetch>, method: string, path: string) =>
  fn.mock.calls.filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path);

describe('AdminOverlay for admins', () => {
  it('says which language model gets the unsure events, when one is configured', async () => {
    adminApi({ llm: 'llama3.1:8b' });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const dialog = await screen.findByRole('dialog', { name: 'Admin Dashboard' });
    expect(await within(dialog).findByText('held-out, 240 held-out events; unsure events go to llama3.1:8b')).toBeTruthy();
  });

  it('shows the four stat tiles: totals, enabled sources and the measured AI accuracy', async () => {
    adminApi();
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const dialog = await screen.findByRole('dialog', { name: 'Admin Dashboard' });
    await waitFor(() => expect(within(dialog).getByTestId('stat-Total Events').textContent).toBe('128'));
    expect(within(dialog).getByTestId("stat-Today's Events").textContent).toBe('7');
    await waitFor(() => expect(within(dialog).getByTestId('stat-Data Sources').textContent).toBe('2'));
    await waitFor(() => expect(within(dialog).getByTestId('stat-AI Accuracy').textContent).toBe('94.2%'));
    expect(within(dialog).getByText('held-out, 240 held-out events')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Manage sources' }).getAttribute('href')).toBe('/admin/sources');
  });

  it("shows '—' for AI accuracy when the server has no measurement", async () => {
    adminApi({ aiStatus: 'missing' });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    await waitFor(() => expect(screen.getByTestId('stat-AI Accuracy').textContent).toBe('—'));
  });

  it('shows the empty state when nothing waits for review', async () => {
    adminApi({ pending: [] });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    expect(await screen.findByText('No pending events')).toBeTruthy();
    expect(screen.getByText('All events are currently up to date')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists pending events with Pending Review; Approve removes the row and toasts', async () => {
    const a = buildEvent({ title: 'Basement Punk Night', sourceType: 'meetup', category: 'Music', status: 'pending' });
    const b = buildEvent({ title: 'Pottery Swap', sourceType: 'facebook', category: 'Arts', status: 'pending' });
    const fetchFn = adminApi({ pending: [a, b] });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Event', 'Source', 'Category', 'Status', 'Actions']);
    expect(within(table).getAllByText('Pending Review')).toHaveLength(2);
    const row = within(table).getByText('Basement Punk Night').closest('tr')!;
    expect(within(row).getByText('meetup')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Approve' }));
    expect((await screen.findAllByText('Event approved successfully')).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByText('Basement Punk Night')).toBeNull());
    expect(screen.getByText('Pottery Swap')).toBeTruthy();
    expect(callsTo(fetchFn, 'POST', `/api/admin/events/${a.id}/approve`)).toHaveLength(1);
  });

  // Renders a whole page of 200 rows several times: slow under a loaded machine.
  it('pages through a queue longer than a page, saying how many wait', { timeout: 60_000 }, async () => {
    const waiting = Array.from({ length: PENDING_PAGE + 5 }, (_, i) => buildEvent({ title: `Contribution ${i + 1}`, status: 'pending' }));
    adminApi({ pending: waiting });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const table = await screen.findByRole('table');
    expect(within(table).getAllByTestId('review-row')).toHaveLength(PENDING_PAGE);
    const pages = screen.getByRole('navigation', { name: 'Pages of events waiting for review' });
    expect(within(pages).getByTestId('review-range').textContent).toBe(`1–${PENDING_PAGE} of ${PENDING_PAGE + 5} waiting, newest first`);
    expect((within(pages).getByRole('button', { name: 'Newer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(pages).getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.getAllByTestId('review-row')).toHaveLength(5));
    expect(screen.getByText(`Contribution ${PENDING_PAGE + 5}`)).toBeTruthy();
    expect(screen.getByTestId('review-range').textContent).toBe(`${PENDING_PAGE + 1}–${PENDING_PAGE + 5} of ${PENDING_PAGE + 5} waiting, newest first`);
    expect((screen.getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(screen.getAllByTestId('review-row')).toHaveLength(PENDING_PAGE));

    // Back on the last page, its five are decided: the way back to the newest is offered.
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.getAllByTestId('review-row')).toHaveLength(5));
    for (let i = 0; i < 5; i++) {
      fireEvent.click(within(screen.getAllByTestId('review-row')[0]!).getByRole('button', { name: 'Approve' }));
      await waitFor(() => expect(screen.queryAllByTestId('review-row')).toHaveLength(4 - i));
    }
    expect(await screen.findByText('Nothing left on this page')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show the newest' }));
    await waitFor(() => expect(screen.getAllByTestId('review-row')).toHaveLength(PENDING_PAGE));
  });

  it('shows no pages when every pending event fits on one', async () => {
    adminApi({ pending: [buildEvent({ title: 'Pottery Swap', status: 'pending' })] });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    await screen.findByText('Pottery Swap');
    expect(screen.queryByRole('navigation', { name: 'Pages of events waiting for review' })).toBeNull();
  });

  it('Reject removes the row; a failed reject says so and keeps it', async () => {
    const a = buildEvent({ title: 'Rooftop Yoga', status: 'pending' });
    const b = buildEvent({ title: 'Spam Giveaway', status: 'pending' });
    adminApi({
      pending: [a, b],
      extra: (url) => (url.pathname === `/api/admin/events/${b.id}/reject` ? json({ code: 'internal', message: 'Internal Server Error' }, { status: 500 }) : undefined),
    });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const rowA = (await screen.findByText('Rooftop Yoga')).closest('tr')!;
    fireEvent.click(within(rowA).getByRole('button', { name: 'Reject' }));
    expect((await screen.findAllByText('Event rejected successfully')).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByText('Rooftop Yoga')).toBeNull());
    const rowB = screen.getByText('Spam Giveaway').closest('tr')!;
    fireEvent.click(within(rowB).getByRole('button', { name: 'Reject' }));
    expect((await screen.findAllByText('Failed to reject event')).length).toBeGreaterThan(0);
    expect(screen.getByText('Spam Giveaway')).toBeTruthy();
  });

  it('Edit sends only the changed fields, the date as ISO with the city offset, and empty price as free', async () => {
    // Sat, Nov 28 2026, 7:00 PM in Portland; $12.
    const e = buildEvent({ title: 'Jazz Nite', category: 'Music', venue: 'Old Hall', price: 12, isFree: false, status: 'pending' });
    const fetchFn = adminApi({ pending: [e] });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    const row = (await screen.findByText('Jazz Nite')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit event' });
    const title = within(dialog).getByLabelText('Title') as HTMLInputElement;
    const when = within(dialog).getByLabelText('Date and time') as HTMLInputElement;
    const price = within(dialog).getByLabelText('Price') as HTMLInputElement;
    expect(title.value).toBe('Jazz Nite');
    expect(when.value).toBe('2026-11-28T19:00');
    expect(price.value).toBe('12');
    expect((within(dialog).getByLabelText('Category') as HTMLSelectElement).value).toBe('Music');
    expect((within(dialog).getByLabelText('Venue') as HTMLInputElement).value).toBe('Old Hall');

    fireEvent.change(title, { target: { value: '  Jazz Night  ' } });
    fireEvent.change(within(dialog).getByLabelText('Category'), { target: { value: 'Arts' } });
    fireEvent.change(when, { target: { value: '2026-11-28T20:30' } });
    fireEvent.change(price, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect((await screen.findAllByText('Event updated')).length).toBeGreaterThan(0);
    const patches = callsTo(fetchFn, 'PATCH', `/api/admin/events/${e.id}`);
    expect(patches).toHaveLength(1);
    expect(JSON.parse(String(patches[0]![1]!.body))).toEqual({ title: 'Jazz Night', category: 'Arts', startDate: '2026-11-28T20:30:00-08:00', price: null });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit event' })).toBeNull());
    expect(await screen.findByText('Jazz Night')).toBeTruthy();
  });

  it('Edit shows field errors from a 400 inline and keeps the dialog open', async () => {
    const e = buildEvent({ title: 'Quiz', status: 'pending' });
    adminApi({
      pending: [e],
      extra: (url, init) =>
        init?.method === 'PATCH'
          ? json({ code: 'invalid', message: 'body.venue: too long', issues: [{ path: 'body.venue', message: 'venue is too long' }] }, { status: 400 })
          : undefined,
    });
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: ADMIN });
    fireEvent.click(within((await screen.findByText('Quiz')).closest('tr')!).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit event' });
    fireEvent.change(within(dialog).getByLabelText('Venue'), { target: { value: 'Somewhere else' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('venue is too long')).toBeTruthy();
    expect(within(dialog).getByLabelText('Venue').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('AdminOverlay for other users', () => {
  it('is My Events: the Discover hint and links to the saved events', async () => {
    const fav = buildSaved({ title: 'Night Market' });
    const fetchFn = stubFetch((url) => (url.pathname === '/api/user/favorites' ? json([fav]) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    expect(within(dialog).getByRole('link', { name: 'Discover page' })).toBeTruthy();
    const link = await within(dialog).findByRole('link', { name: 'Night Market' });
    expect(link.getAttribute('href')).toBe(`/events/${fav.id}`);
    expect(within(dialog).queryByText('Recent Events Requiring Review')).toBeNull();
    expect(fetchFn.mock.calls.some(([u]) => String(u).includes('/api/admin/'))).toBe(false);
  });

  it('marks a saved event that every source has dropped, one a source cancelled, and one a source postponed', async () => {
    const kept = buildSaved({ id: 'e-kept', title: 'Night Market' });
    const dropped = buildSaved({ id: 'e-dropped', title: 'Winter Showcase', removedBySource: true });
    const cancelled = buildSaved({ id: 'e-cancelled', title: 'Lantern Walk', removedBySource: true, cancelledBySource: true });
    const postponed = buildSaved({ id: 'e-postponed', title: 'Spring Parade', removedBySource: true, postponedBySource: true });
    stubFetch((url) => (url.pathname === '/api/user/favorites' ? json([kept, dropped, cancelled, postponed]) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    const item = (name: string) => within(dialog).getByRole('link', { name }).closest('li')!;
    await within(dialog).findByRole('link', { name: 'Winter Showcase' });
    expect(within(item('Winter Showcase')).getByText('Removed by the source')).toBeTruthy();
    expect(within(item('Night Market')).queryByText('Removed by the source')).toBeNull();
    expect(within(item('Lantern Walk')).getByText('Cancelled')).toBeTruthy();
    expect(within(item('Lantern Walk')).queryByText('Removed by the source')).toBeNull();
    expect(within(item('Spring Parade')).getByText('Postponed')).toBeTruthy();
    expect(within(item('Spring Parade')).queryByText('Removed by the source')).toBeNull();
  });

  it('says when sources disagree about a saved event: one calls it off while another still lists it', async () => {
    const cancelled = buildSaved({ id: 'e-c', title: 'Poetry Reading', removedBySource: true, cancelledBySource: true, calledOffBy: [{ name: 'Central Library', kind: 'cancelled' }], stillListedBy: ['Poetry Blog'] });
    const listed = buildSaved({ id: 'e-l', title: 'Chess Night', calledOffBy: [{ name: 'Poetry Blog', kind: 'postponed' }], stillListedBy: ['Central Library'] });
    stubFetch((url) => (url.pathname === '/api/user/favorites' ? json([cancelled, listed]) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    const item = async (name: string) => (await within(dialog).findByRole('link', { name })).closest('li')!;
    expect(within(await item('Poetry Reading')).getByTestId('saved-removed').textContent).toBe('Cancelled · Poetry Blog still lists it');
    expect(within(await item('Chess Night')).getByTestId('saved-disagree').textContent).toBe('Sources disagree: Poetry Blog says it is postponed, while Central Library still lists it');
    expect(within(await item('Chess Night')).queryByTestId('saved-removed')).toBeNull();
  });

  it('lists upcoming saved events first, then the ones that have ended under Past events, the latest first', async () => {
    const saved = (id: string, title: string, startDate: string, ended: boolean) => buildSaved({ id, title, startDate, ended });
    // The server's order: soonest start first.
    const list = [
      saved('e-old', 'Spring Fair', '2026-04-01T18:00:00.000Z', true),
      saved('e-recent', 'Autumn Supper', '2026-10-01T18:00:00.000Z', true),
      saved('e-next', 'Winter Market', '2026-12-05T18:00:00.000Z', false),
      saved('e-later', 'New Year Walk', '2027-01-01T18:00:00.000Z', false),
    ];
    stubFetch((url) => (url.pathname === '/api/user/favorites' ? json(list) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    const names = (l: HTMLElement) => within(l).getAllByRole('link').map((a) => a.textContent);
    expect(names(await within(dialog).findByRole('list', { name: 'Saved events' }))).toEqual(['Winter Market', 'New Year Walk']);
    expect(within(dialog).getByRole('heading', { name: 'Past events' })).toBeTruthy();
    expect(names(within(dialog).getByRole('list', { name: 'Past events' }))).toEqual(['Autumn Supper', 'Spring Fair']);
  });

  it('says when every saved event has ended that none is upcoming, and lists them as past', async () => {
    const past = buildSaved({ id: 'e-past', title: 'Spring Fair', ended: true });
    stubFetch((url) => (url.pathname === '/api/user/favorites' ? json([past]) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    expect(await within(dialog).findByText('No upcoming saved events.')).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Saved events' })).toBeNull();
    expect(within(within(dialog).getByRole('list', { name: 'Past events' })).getByRole('link', { name: 'Spring Fair' })).toBeTruthy();
    expect(within(dialog).queryByText('No saved events yet.')).toBeNull();
  });

  it('marks a saved event an admin turned down as removed from Townbeat, still linking to its page', async () => {
    const kept = buildSaved({ id: 'e-kept', title: 'Night Market' });
    const rejected = buildSaved({ id: 'e-rejected', title: 'Harvest Supper', status: 'rejected' });
    stubFetch((url) => (url.pathname === '/api/user/favorites' ? json([kept, rejected]) : undefined));
    renderApp(<AdminOverlay open onOpenChange={() => {}} />, { user: buildUser() });
    const dialog = await screen.findByRole('dialog', { name: 'My Events' });
    const link = await within(dialog).findByRole('link', { name: 'Harvest Supper' });
    expect(link.getAttribute('href')).toBe('/events/e-rejected');
    expect(within(link.closest('li')!).getByTestId('saved-removed').textContent).toBe('Removed from Townbeat');
    expect(within(within(dialog).getByRole('link', { name: 'Night Market' }).closest('li')!).queryByTestId('saved-removed')).toBeNull();
  });
});

describe('zoned date-time inputs', () => {
  it('round-trips through the city zone, across daylight saving', () => {
    expect(toZonedInput('2026-07-04T16:00:00.000Z', 'America/Los_Angeles')).toBe('2026-07-04T09:00');
    expect(fromZonedInput('2026-07-04T09:00', 'America/Los_Angeles')).toBe('2026-07-04T09:00:00-07:00');
    expect(fromZonedInput('2026-01-10T09:15', 'America/Los_Angeles')).toBe('2026-01-10T09:15:00-08:00');
    expect(fromZonedInput('2026-01-10T09:15', 'Asia/Kolkata')).toBe('2026-01-10T09:15:00+05:30');
    expect(fromZonedInput('nonsense', 'America/Los_Angeles')).toBeNull();
  });
});
