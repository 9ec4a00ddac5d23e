import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DuplicateListResponse, DuplicatePair, DuplicateSide } from '../../../contract/duplicates.ts';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { buildEvent, buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { DuplicatesReview, learnedLine } from './duplicates-review.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

const ADMIN = buildUser({ id: 'a1', role: 'admin' });

const side = (over: Parameters<typeof buildEvent>[0], sourceNames: string[] = [], description = '', removedBySource = false): DuplicateSide => ({ ...buildEvent(over), sourceNames, description, removedBySource });

function pair(over: Partial<DuplicatePair> = {}): DuplicatePair {
  return {
    id: `10000000-0000-4000-8000-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`,
    kind: 'cross_source',
    score: 0.65,
    reason: 'same title; venue unknown on one side; same start',
    createdAt: '2026-01-05T18:00:00.000Z',
    // Sat, Nov 28 2026, 7:00 PM in Portland for both (buildEvent's default start).
    a: side({ title: 'Artist Talk: Murals of the Eastside', sourceType: 'ical', venue: 'Foxglove Park', neighbourhood: 'Lents', status: 'approved', isDemo: true }, ['Foxglove Park calendar']),
    b: side({ title: 'Artist Talk: Murals of the Eastside', sourceType: 'rss', venue: '', address: null, neighbourhood: null, status: 'pending' }),
    ...over,
  };
}

/** A small imitation of the duplicates API: merge and keep-apart really take the pair off the list. */
function duplicatesApi(opts: { pairs: DuplicatePair[]; open?: number; mergeThreshold?: number | null; decisions?: DuplicateListResponse['decisions']; fail?: { status: number; message: string } }) {
  let pairs = [...opts.pairs];
  const decisions = { ...(opts.decisions ?? { merged: 0, keptApart: 0 }) };
  return stubFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/admin/duplicates' && method === 'GET') return json({ pairs, open: opts.open ?? pairs.length, mergeThreshold: opts.mergeThreshold ?? null, decisions } satisfies DuplicateListResponse);
    const m = /^\/api\/admin\/duplicates\/([^/]+)\/(merge|keep-apart)$/.exec(url.pathname);
    if (m && method === 'POST') {
      if (opts.fail) return json({ code: 'conflict', message: opts.fail.message }, { status: opts.fail.status });
      const p = pairs.find((x) => x.id === m[1]);
      if (!p) return json({ code: 'not_found', message: 'Duplicate pair not found' }, { status: 404 });
      pairs = pairs.filter((x) => x.id !== p.id);
      if (m[2] === 'keep-apart') {
        decisions.keptApart += 1;
        return json({ id: p.id, status: 'kept_apart' });
      }
      decisions.merged += 1;
      const keepId = (JSON.parse(String(init?.body ?? '{}')) as { keepId?: string }).keepId ?? p.a.id;
      return json({ eventId: keepId, mergedId: keepId === p.a.id ? p.b.id : p.a.id });
    }
    // Event lists refetched after a decision.
    if (url.pathname.startsWith('/api/events') || url.pathname === '/api/admin/events/pending') return json([]);
    return undefined;
  });
}

const callsTo = (fn: ReturnType<typeof stubFetch>, method: string, path: string) =>
  fn.mock.calls.filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path);

describe('DuplicatesReview', () => {
  it('shows each pair side by side: title, date and time, venue, source type, status, reason and score', async () => {
    const p = pair();
    duplicatesApi({ pairs: [p], decisions: { merged: 2, keptApart: 1 } });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    expect(screen.getByRole('heading', { name: 'Possible duplicates' })).toBeTruthy();
    const item = await screen.findByTestId('duplicate-pair');
    expect(within(item).getByText('Score 0.65')).toBeTruthy();
    expect(within(item).getByText('Two sources')).toBeTruthy();
    expect(within(item).getByText('same title; venue unknown on one side; same start')).toBeTruthy();

    const [first, second] = within(item).getAllByRole('group');
    expect(within(first!).getByRole('link', { name: p.a.title }).getAttribute('href')).toBe(`/events/${p.a.id}`);
    expect(within(first!).getByText('Sat, Nov 28 · 7:00 PM')).toBeTruthy();
    expect(within(first!).getByText('Foxglove Park · 1332 W Burnside St · Lents')).toBeTruthy();
    expect(within(first!).getByText('ical')).toBeTruthy();
    // Which source lists it, by name; a listing no source names (a member's) says nothing of it.
    expect(within(first!).getByText('From Foxglove Park calendar')).toBeTruthy();
    expect(within(second!).queryByText(/^From /)).toBeNull();
    expect(within(first!).getByText('Approved')).toBeTruthy();
    expect(within(first!).getByText('Demo')).toBeTruthy();
    expect(within(second!).getByText('No venue given')).toBeTruthy();
    expect(within(second!).getByText('rss')).toBeTruthy();
    expect(within(second!).getByText('Pending Review')).toBeTruthy();
    for (const side of [first!, second!]) expect(within(side).getByRole('button', { name: 'Keep this one' })).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Keep apart' })).toBeTruthy();

    expect(screen.getByTestId('duplicates-learned').textContent).toBe('Not enough decisions yet to merge on its own (2 merged, 1 kept apart)');
    // All the open pairs are here: nothing more to say.
    expect(screen.queryByTestId('duplicates-more')).toBeNull();
  });

  it('shows what may tell two listings alike in all else apart: the address and the start of each description', async () => {
    const room = (address: string, description: string) => side({ title: 'Open Mic Night', venue: 'The Blue Room', address, neighbourhood: null }, ['Blue Room calendar'], description);
    const p = pair({ kind: 'same_source', score: 1, reason: 'listed twice by one source under two ids', a: room('1020 SE 7th Ave, Main Room', 'Sign up at the bar from 7; full backline.'), b: room('1020 SE 7th Ave, Back Room', 'Acoustic only, poets welcome.') });
    duplicatesApi({ pairs: [p] });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    const [first, second] = within(await screen.findByTestId('duplicate-pair')).getAllByRole('group');
    expect(within(first!).getByText('The Blue Room · 1020 SE 7th Ave, Main Room')).toBeTruthy();
    expect(within(second!).getByText('The Blue Room · 1020 SE 7th Ave, Back Room')).toBeTruthy();
    expect(within(first!).getByTestId('duplicate-description').textContent).toBe('Sign up at the bar from 7; full backline.');
    expect(within(second!).getByTestId('duplicate-description').textContent).toBe('Acoustic only, poets welcome.');
  });

  it('marks a listing its source dropped and does not offer to keep it over one still listed', async () => {
    const p = pair({ kind: 'same_source', score: 1, reason: 'listed twice by one source under two ids', a: side({ title: 'String Quartet Concert' }, ['Old Church'], '', true), b: side({ title: 'String Quartet Concert' }, ['Old Church']) });
    duplicatesApi({ pairs: [p] });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    const [first, second] = within(await screen.findByTestId('duplicate-pair')).getAllByRole('group');
    expect(within(first!).getByText('Removed by its source')).toBeTruthy();
    expect(within(second!).queryByText('Removed by its source')).toBeNull();
    expect((within(first!).getByRole('button', { name: 'Keep this one' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(second!).getByRole('button', { name: 'Keep this one' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says how many pairs are open in all when more are open than listed', async () => {
    duplicatesApi({ pairs: [pair(), pair({ score: 0.6 })], open: 130 });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    expect((await screen.findByTestId('duplicates-more')).textContent).toBe('130 pairs are open: here are the 2 most likely, and the next ones follow as you decide these.');
  });

  it('says what the decisions taught once there is a threshold', async () => {
    duplicatesApi({ pairs: [pair()], mergeThreshold: 0.82, decisions: { merged: 11, keptApart: 1 } });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    expect((await screen.findByTestId('duplicates-learned')).textContent).toBe('Learned from 12 decisions: pairs scoring ≥ 0.82 now merge on their own (11 merged, 1 kept apart)');
    expect(learnedLine({ mergeThreshold: 0.9, decisions: { merged: 1, keptApart: 0 } })).toBe('Learned from 1 decision: pairs scoring ≥ 0.90 now merge on their own (1 merged, 0 kept apart)');
  });

  it('"Keep this one" merges the pair keeping that side; the pair leaves the list with a toast', async () => {
    const p = pair();
    const other = pair({ score: 0.6, a: side({ title: 'Pottery Swap' }), b: side({ title: 'Pottery Swap Meet' }) });
    const fetchFn = duplicatesApi({ pairs: [p, other] });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    const item = (await screen.findAllByTestId('duplicate-pair'))[0]!;
    const second = within(item).getAllByRole('group')[1]!;
    fireEvent.click(within(second).getByRole('button', { name: 'Keep this one' }));

    expect((await screen.findAllByText('Events merged')).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getAllByTestId('duplicate-pair')).toHaveLength(1));
    expect(screen.getByText('Pottery Swap')).toBeTruthy();
    const posts = callsTo(fetchFn, 'POST', `/api/admin/duplicates/${p.id}/merge`);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ keepId: p.b.id });
    // The list is asked again, and now counts the decision.
    await waitFor(() => expect(screen.getByTestId('duplicates-learned').textContent).toBe('Not enough decisions yet to merge on its own (1 merged, 0 kept apart)'));
  });

  it('"Keep apart" records the decision and takes the pair off the list, down to the empty state', async () => {
    const p = pair();
    const fetchFn = duplicatesApi({ pairs: [p] });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    fireEvent.click(within(await screen.findByTestId('duplicate-pair')).getByRole('button', { name: 'Keep apart' }));
    expect((await screen.findAllByText('Kept apart')).length).toBeGreaterThan(0);
    expect(await screen.findByText('No possible duplicates')).toBeTruthy();
    expect(callsTo(fetchFn, 'POST', `/api/admin/duplicates/${p.id}/keep-apart`)).toHaveLength(1);
    expect(callsTo(fetchFn, 'POST', `/api/admin/duplicates/${p.id}/merge`)).toHaveLength(0);
  });

  it('shows the empty state when nothing waits', async () => {
    duplicatesApi({ pairs: [] });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    expect(await screen.findByText('No possible duplicates')).toBeTruthy();
    expect(screen.getByText('Pairs the importer is unsure about show here, to merge or keep apart.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep apart' })).toBeNull();
  });

  it("says why a merge failed (the pair was decided elsewhere) with the server's message", async () => {
    duplicatesApi({ pairs: [pair()], fail: { status: 409, message: 'This pair was already decided (kept apart)' } });
    renderApp(<DuplicatesReview />, { user: ADMIN });
    const first = within(await screen.findByTestId('duplicate-pair')).getAllByRole('group')[0]!;
    fireEvent.click(within(first).getByRole('button', { name: 'Keep this one' }));
    expect((await screen.findAllByText('Could not merge')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('This pair was already decided (kept apart)').length).toBeGreaterThan(0);
  });

  it('shows an error with a way to try again when the list cannot load', async () => {
    stubFetch((url) => (url.pathname === '/api/admin/duplicates' ? json({ code: 'internal', message: 'boom' }, { status: 500 }) : undefined));
    renderApp(<DuplicatesReview />, { user: ADMIN });
    expect(await screen.findByText('Could not load the possible duplicates.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
