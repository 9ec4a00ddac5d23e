import { fireEvent, screen, waitFor, within, configure } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventSummary } from '../../../contract/events.ts';
import { buildEvent, buildUser, json, renderApp, stubFetch, type Handler } from '../events/test-helpers.tsx';
import DiscoverPage from './discover-page.tsx';
import { lastDiscover } from './last-discover.ts';

// Rendering a page of cards in jsdom can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => vi.unstubAllGlobals());

const ALL: EventSummary[] = Array.from({ length: 30 }, (_, i) =>
  buildEvent({ title: `Show ${i + 1}`, category: i % 3 === 0 ? 'Music' : 'Arts', sourceType: i % 2 ? 'meetup' : 'municipal' }),
);

/** A small imitation of the events API over ALL: category filter, search, limit and offset. */
function api(opts: { events?: EventSummary[]; recommended?: EventSummary[]; failList?: () => boolean; extra?: Handler } = {}) {
  const source = opts.events ?? ALL;
  return stubFetch((url, init) => {
    const extra = opts.extra?.(url, init);
    if (extra) return extra;
    const q = url.searchParams;
    const cats = q.get('category')?.split(',');
    const matching = source.filter((e) => (!cats || cats.includes(e.category)) && (!q.get('search') || e.title.includes(q.get('search')!)));
    switch (url.pathname) {
      case '/api/events': {
        if (opts.failList?.()) return json({ code: 'internal', message: 'database down' }, { status: 500 });
        const offset = Number(q.get('offset') ?? 0);
        const limit = Number(q.get('limit') ?? 24);
        return json(matching.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(matching.length) } });
      }
      case '/api/events/facets':
        return json({
          categories: [
            { value: 'Music', count: source.filter((e) => e.category === 'Music').length },
            { value: 'Arts', count: source.filter((e) => e.category === 'Arts').length },
          ],
          sourceTypes: [
            { value: 'meetup', count: 15 },
            { value: 'municipal', count: 15 },
            { value: 'ical', count: 0 },
          ],
          total: matching.length,
        });
      case '/api/events/stats':
        return json({ totalEvents: 30, todayEvents: 12, activeSources: 4, coverage: 87.5 });
      case '/api/events/recommended':
        return json(opts.recommended ?? []);
      case '/api/health':
        return json({ status: 'operational', health: { metrics: { system: { uptime: 8_040_000 }, storage: { totalEvents: 41, todayEvents: 13, totalUsers: 7 } } } });
    }
    return undefined;
  });
}

const cards = () => screen.queryAllByTestId('event-card').filter((c) => c.closest('[aria-labelledby="all-events-heading"]'));
const allHeading = () => screen.getByRole('heading', { level: 2, name: /^All Events/ });

describe('DiscoverPage', { timeout: 60_000 }, () => {
  it('shows six skeleton cards, then 24 events with the total, and Load More appends the rest', async () => {
    api();
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    expect(screen.getAllByTestId('event-card-skeleton')).toHaveLength(6);
    await waitFor(() => expect(cards()).toHaveLength(24));
    expect(allHeading().textContent).toBe('All Events (30)');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Discover Events');
    // No app shell here, so no /ws connection: the tag says so instead of pulsing.
    expect(screen.getByTestId('live-updates').textContent).toBe('Offline');
    expect(await screen.findByText('12 events today')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load More Events' }));
    await waitFor(() => expect(cards()).toHaveLength(30));
    expect(cards()[24]!.textContent).toContain('Show 25');
    expect(screen.queryByRole('button', { name: 'Load More Events' })).toBeNull();
  });

  it('shows live facet counts, the coverage from stats and the production status', async () => {
    api();
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    const music = await screen.findByRole('checkbox', { name: /^Music/ });
    await waitFor(() => expect(music.closest('label')!.textContent).toBe('Music10'));
    expect(screen.getByRole('checkbox', { name: /^Food/ }).closest('label')!.textContent).toBe('Food0');
    expect((await screen.findByTestId('coverage-value')).textContent).toBe('87.5%');
    const status = screen.getByRole('region', { name: 'Production Status' });
    await waitFor(() => expect(within(status).getByText('Operational')).toBeTruthy());
    expect(within(status).getByText('2h 14m')).toBeTruthy();
    expect(within(status).getByText('7')).toBeTruthy();
    // Its event figures are the listed ones the list counts (stats), not every approved row stored (health).
    expect(within(status).getByText('Total events').nextSibling!.textContent).toBe('30');
    expect(within(status).getByText("Today's events").nextSibling!.textContent).toBe('12');
  });

  it('filters by category through the URL and asks the server for it', async () => {
    const fetch = api();
    const { location } = renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    await waitFor(() => expect(cards()).toHaveLength(24));
    fireEvent.click(screen.getByRole('checkbox', { name: /^Music/ }));
    await waitFor(() => expect(allHeading().textContent).toBe('All Events (10)'));
    expect(location.history!.at(-1)).toBe('/dashboard?category=Music');
    expect(cards().every((c) => c.getAttribute('data-category') === 'Music')).toBe(true);
    expect(fetch.mock.calls.some(([u]) => String(u).startsWith('/api/events?') && String(u).includes('category=Music'))).toBe(true);
  });

  it('reads filters from the URL on load (a shared link)', async () => {
    const fetch = api();
    renderApp(<DiscoverPage />, { path: '/dashboard?category=Music&sortBy=date&view=list', user: buildUser() });
    await waitFor(() => expect(allHeading().textContent).toBe('All Events (10)'));
    expect((screen.getByRole('checkbox', { name: /^Music/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Sort by') as HTMLSelectElement).value).toBe('date');
    expect(screen.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    const listCall = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith('/api/events?'))!;
    expect(new URL(listCall, 'http://x').searchParams.get('sortBy')).toBe('date');
  });

  it('writes the sort and the view to the URL', async () => {
    api();
    const { location } = renderApp(<DiscoverPage />, { path: '/', user: buildUser() });
    await waitFor(() => expect(cards()).toHaveLength(24));
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'date' } });
    expect(location.history!.at(-1)).toBe('/?sortBy=date');
    const grid = screen.getByRole('button', { name: 'Grid view' });
    expect(grid.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'List view' }));
    expect(location.history!.at(-1)).toBe('/?sortBy=date&view=list');
    await waitFor(() => expect(screen.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true'));
    expect(grid.getAttribute('aria-pressed')).toBe('false');
  });

  it('lists only the source types with events, all checked and not filtering; unchecking one writes the rest', async () => {
    const fetch = api();
    const { location } = renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    await waitFor(() => expect(cards()).toHaveLength(24));
    const group = screen.getByRole('group', { name: 'Source types' });
    // The facets have meetup and municipal events, none from ical (nor facebook or eventbrite).
    await waitFor(() => expect(within(group).getAllByRole('checkbox').map((b) => b.parentElement?.textContent)).toEqual(['meetup15', 'municipal15']));
    expect(within(group).getAllByRole('checkbox').every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(fetch.mock.calls.some(([u]) => String(u).includes('sourceType='))).toBe(false);
    fireEvent.click(within(group).getByRole('checkbox', { name: /^meetup/ }));
    expect(location.history!.at(-1)).toBe('/dashboard?sourceType=municipal');
  });

  it('keeps a selected source type with no events in the list, unchecked back to all', async () => {
    api();
    const { location } = renderApp(<DiscoverPage />, { path: '/dashboard?sourceType=facebook,meetup', user: buildUser() });
    const group = screen.getByRole('group', { name: 'Source types' });
    await waitFor(() => expect(within(group).getAllByRole('checkbox')).toHaveLength(3));
    const facebook = within(group).getByRole('checkbox', { name: /^facebook/ }) as HTMLInputElement;
    expect(facebook.checked).toBe(true);
    expect(within(group).getByText('facebook').parentElement?.textContent).toBe('facebook0');
    fireEvent.click(facebook);
    expect(location.history!.at(-1)).toBe('/dashboard?sourceType=meetup');
  });

  it('choosing custom dates clears them and shows two date inputs', async () => {
    api();
    const { location } = renderApp(<DiscoverPage />, { path: '/dashboard?dateRange=week', user: buildUser() });
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    fireEvent.click(screen.getByRole('radio', { name: 'Custom' }));
    expect(location.history!.at(-1)).toBe('/dashboard?dateRange=custom');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-12-01' } });
    expect(location.history!.at(-1)).toBe('/dashboard?dateRange=custom&startDate=2026-12-01');
    // Remembered for the way back from an event page.
    await waitFor(() => expect(lastDiscover()).toBe('/dashboard?dateRange=custom&startDate=2026-12-01'));
    expect(screen.queryByTestId('custom-dates-swapped')).toBeNull();
    // Typed the wrong way round: the list shows the days between, and says so.
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-25' } });
    expect(screen.getByTestId('custom-dates-swapped').textContent).toBe('From is after To: showing Nov 25 to Dec 1.');
    fireEvent.click(screen.getByRole('radio', { name: 'Today' }));
    expect(location.history!.at(-1)).toBe('/dashboard?dateRange=today');
  });

  it('moving the distance slider sets the radius in miles, singular at 1', async () => {
    api();
    const { location } = renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    const slider = screen.getByLabelText('Distance') as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(['1', '50', '1', '10']);
    // No limit yet: the thumb rests at 10 shown as not in use, and says so.
    expect(slider.dataset.inUse).toBe('false');
    expect(slider.className).toContain('opacity-50');
    expect(slider.getAttribute('aria-valuetext')).toBe('Any distance (slide to limit, 10 miles)');
    fireEvent.change(slider, { target: { value: '25' } });
    await waitFor(() => expect(slider.dataset.inUse).toBe('true'));
    expect(slider.className).not.toContain('opacity-50');
    expect(location.history!.at(-1)).toBe('/dashboard?radius=25');
    expect(await screen.findByText('25 miles')).toBeTruthy();
    fireEvent.change(slider, { target: { value: '1' } });
    expect(location.history!.at(-1)).toBe('/dashboard?radius=1');
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('1 mile'));
    expect(screen.queryByText('1 miles')).toBeNull();
  });

  it('shows the empty state', async () => {
    api({ events: [] });
    renderApp(<DiscoverPage />, { path: '/dashboard?search=qwxyzzy', user: buildUser() });
    expect(await screen.findByText('No events found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your filters or search terms')).toBeTruthy();
    expect(allHeading().textContent).toBe('All Events (0)');
  });

  it("'Scan QR' opens the scanner modal, and closing it removes it", async () => {
    api();
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Scan QR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan QR Code' });
    expect(within(dialog).getByRole('button', { name: 'Start Scanning' })).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scan QR Code' })).toBeNull());
  });

  it('shows an error with a retry that recovers', async () => {
    let fail = true;
    api({ failList: () => fail });
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Events could not be loaded');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(24));
  });

  it('shows the points banner only with points, with the next badge', async () => {
    api();
    const { unmount } = renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser({ points: 0 }) });
    expect(screen.queryByRole('region', { name: 'Your points' })).toBeNull();
    unmount();
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser({ points: 65 }) });
    const banner = screen.getByRole('region', { name: 'Your points' });
    expect(within(banner).getByTestId('banner-points').textContent).toBe('65 points');
    expect(within(banner).getByTestId('next-badge').textContent).toBe('Next badge: Champion at 150 points (85 to go)');
  });

  it('reserves the recommendations strip from the first render, so the list never moves', async () => {
    api({ recommended: [] });
    const { unmount } = renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    // Before anything has loaded, the section and its fixed-height strip are already there.
    const strip = screen.getByTestId('recommended-strip');
    expect(strip.className).toMatch(/\bh-\[/);
    expect(screen.getByRole('status', { name: 'Loading recommendations' })).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(24));
    // Nothing to recommend: the same strip keeps its place with a short note.
    expect(await within(strip).findByText(/Save a few events and we.ll suggest more/)).toBeTruthy();
    expect(screen.getByTestId('recommended-strip')).toBe(strip);
    expect(screen.getByRole('heading', { name: /AI Recommended for You/ }).closest('section')!.textContent).toContain('Personalized');
    unmount();

    const views: string[] = [];
    const dismissed: string[] = [];
    const picked = buildEvent({ title: 'Picked for you' });
    const other = buildEvent({ title: 'Also for you' });
    api({
      recommended: [
        { ...picked, reason: 'Because you saved Jazz Night' } as EventSummary,
        // An older server without reasons: the card shows no reason line rather than failing.
        other,
      ],
      extra: (url, init) => {
        if (url.pathname.endsWith('/view') && init?.method === 'POST') {
          views.push(`${url.pathname} ${String(init.body)}`);
          return json({ recorded: true });
        }
        if (url.pathname.endsWith('/dismiss') && init?.method === 'POST') {
          dismissed.push(url.pathname);
          return json({ dismissed: true });
        }
        return undefined;
      },
    });
    renderApp(<DiscoverPage />, { path: '/dashboard', user: buildUser() });
    const strip2 = screen.getByTestId('recommended-strip');
    const recCards = await within(strip2).findAllByTestId('recommended-card');
    expect(recCards).toHaveLength(2);
    expect(within(recCards[0]!).getByTestId('recommendation-reason').textContent).toBe('Because you saved Jazz Night');
    expect(within(recCards[1]!).queryByTestId('recommendation-reason')).toBeNull();

    // 'Not interested' while the pointer is on the strip: the card's place is kept, then it leaves.
    fireEvent.pointerEnter(strip2);
    fireEvent.click(within(recCards[1]!).getByRole('button', { name: 'Not interested in Also for you' }));
    await waitFor(() => expect(dismissed).toEqual([`/api/events/${other.id}/dismiss`]));
    expect(await within(strip2).findByText(/Hidden\. We won.t suggest Also for you again/)).toBeTruthy();
    expect(within(strip2).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.pointerLeave(strip2);
    await waitFor(() => expect(within(strip2).getAllByRole('listitem')).toHaveLength(1));

    // A click on a recommendation records a view for the next ranking.
    fireEvent.click(within(strip2).getByRole('link', { name: 'Picked for you' }));
    await waitFor(() => expect(views).toEqual([`/api/events/${picked.id}/view {"via":"recommendation"}`]));
  });

  it('does not ask for recommendations when signed out', async () => {
    const fetch = api({ recommended: [buildEvent()] });
    renderApp(<DiscoverPage />, { path: '/dashboard', user: null });
    await waitFor(() => expect(cards()).toHaveLength(24));
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/events/recommended'))).toBe(false);
    expect(screen.queryByRole('heading', { name: /AI Recommended for You/ })).toBeNull();
  });
});
