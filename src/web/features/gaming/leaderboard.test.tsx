import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeaderboardEntry } from '../../../contract/gaming.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { CommunityBuzz } from './community-buzz.tsx';
import { buildActivity } from './gaming-test-helpers.ts';
import LeaderboardPage from './leaderboard-page.tsx';
import { LeaderboardTop } from './leaderboard-top.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => vi.unstubAllGlobals());

const entry = (rank: number, userId: string, points: number, displayName = `Person ${rank}.`): LeaderboardEntry => ({ rank, userId, points, displayName });
const ALL = [entry(1, 'a', 300), entry(2, 'u1', 120, 'Pat P.'), entry(2, 'c', 120), entry(4, 'd', 50)];
const WEEK = [entry(1, 'c', 40)];

function api() {
  let optOut = false;
  const patches: unknown[] = [];
  const fetchFn = stubFetch((url, init) => {
    if (url.pathname === '/api/gaming/leaderboard') return json(url.searchParams.get('period') === 'week' ? WEEK : ALL);
    if (url.pathname === '/api/user/profile') {
      if (init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body)) as { leaderboardOptOut: boolean };
        patches.push(body);
        optOut = body.leaderboardOptOut;
      }
      return json({ leaderboardOptOut: optOut });
    }
    return undefined;
  });
  return { fetchFn, patches };
}

describe('LeaderboardTop', { timeout: 20_000 }, () => {
  it('shows the top 3, marks me, and links to the full board', async () => {
    api();
    renderApp(<LeaderboardTop />, { user: buildUser({ id: 'u1' }) });
    const list = await screen.findByTestId('leaderboard-top');
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('Pat P.(you)');
    expect(rows[1]!.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('link', { name: 'See full leaderboard' }).getAttribute('href')).toBe('/leaderboard');
  });
});

describe('LeaderboardPage', { timeout: 20_000 }, () => {
  it('lists every rank, switches to this week, and hides me on request', async () => {
    const { fetchFn, patches } = api();
    renderApp(<LeaderboardPage />, { user: buildUser({ id: 'u1' }), path: '/leaderboard' });
    expect(screen.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(ALL.length + 1);
    expect(screen.getByTestId('leaderboard-me').textContent).toContain('120');

    fireEvent.click(screen.getByRole('tab', { name: 'This week' }));
    expect(screen.getByRole('tab', { name: 'This week' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(WEEK.length + 1));
    expect(fetchFn.mock.calls.some(([u]) => String(u).endsWith('/api/gaming/leaderboard?period=week'))).toBe(true);

    const toggle = screen.getByRole('switch', { name: 'Hide me from the leaderboard' });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(patches).toEqual([{ leaderboardOptOut: true }]));
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  });
});

describe('CommunityBuzz', { timeout: 20_000 }, () => {
  it('shows the 3 latest activities with their points, or an empty note', async () => {
    const acts = [1, 2, 3, 4].map((i) => buildActivity({ description: `Thing ${i}`, pointsEarned: i * 5, createdAt: new Date(Date.now() - i * 120_000).toISOString() }));
    stubFetch((url) => (url.pathname === '/api/user/activities' ? json(acts) : undefined));
    const view = renderApp(<CommunityBuzz />, { user: buildUser() });
    const list = await screen.findByTestId('community-buzz');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('p')!.textContent)).toEqual(['Thing 1', 'Thing 2', 'Thing 3']);
    expect(items[0]!.textContent).toContain('+5');
    expect(items[0]!.textContent).toContain('2 minutes ago');
    view.unmount();

    stubFetch((url) => (url.pathname === '/api/user/activities' ? json([]) : undefined));
    renderApp(<CommunityBuzz />, { user: buildUser() });
    expect(await screen.findByText(/No activity yet/)).toBeTruthy();
  });
});
