import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeaderboardEntry } from '../../../contract/gaming.ts';
import type { BuzzItem } from '../../../contract/recommendations.ts';
import { applyServerMessage } from '../../lib/realtime-client.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { CommunityBuzz } from './community-buzz.tsx';
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
  it("shows the community's 3 latest actions with who, what and when, linked, or an empty note", async () => {
    const at = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    const items: BuzzItem[] = [
      { id: 'a', actor: 'Sam L.', action: 'saved', verb: 'saved', count: 1, subject: 'Jazz Night', eventId: 'e1', storyId: null, at: at(2) },
      { id: 'b', actor: 'Kim N.', action: 'shared_story', verb: 'shared the story', count: 1, subject: 'The Old Mill', eventId: null, storyId: 's1', at: at(5) },
      { id: 'c', actor: 'Mia T.', action: 'scanned_flyer', verb: 'scanned a flyer of', count: 2, subject: 'Winter Lantern Walk', eventId: 'e2', storyId: null, at: at(7) },
    ];
    const asked: string[] = [];
    stubFetch((url) => {
      if (url.pathname !== '/api/community/buzz') return undefined;
      asked.push(url.search);
      return json({ items });
    });
    const view = renderApp(<CommunityBuzz />, { user: buildUser() });
    const list = await screen.findByTestId('community-buzz');
    expect(asked).toEqual(['?limit=3']);
    const rows = within(list).getAllByRole('listitem');
    // Every action in words, a repeat counted on its one line.
    expect(rows.map((li) => li.querySelector('p')!.textContent)).toEqual(['Sam L. saved Jazz Night', 'Kim N. shared the story The Old Mill', 'Mia T. scanned a flyer of Winter Lantern Walk (2 times)']);
    expect(rows[0]!.textContent).toContain('2 minutes ago');
    expect(within(rows[0]!).getByRole('link', { name: 'Jazz Night' }).getAttribute('href')).toBe('/events/e1');
    expect(within(rows[1]!).getByRole('link', { name: 'The Old Mill' }).getAttribute('href')).toBe('/stories');
    view.unmount();

    stubFetch((url) => (url.pathname === '/api/community/buzz' ? json({ items: [] }) : undefined));
    renderApp(<CommunityBuzz />, { user: buildUser() });
    expect(await screen.findByText(/Nothing from the community yet/)).toBeTruthy();
  });

  it("refetches on the live channel's buzz message", async () => {
    let items: BuzzItem[] = [];
    stubFetch((url) => (url.pathname === '/api/community/buzz' ? json({ items }) : undefined));
    const view = renderApp(<CommunityBuzz />, { user: buildUser() });
    expect(await screen.findByText(/Nothing from the community yet/)).toBeTruthy();
    items = [{ id: 'a', actor: 'Pat P.', action: 'saved', verb: 'saved', count: 1, subject: 'Jazz Night', eventId: 'e1', storyId: null, at: new Date().toISOString() }];
    applyServerMessage(view.client, { type: 'buzz', data: {} });
    expect(await screen.findByText('Pat P.')).toBeTruthy();
  });
});
