import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { buildBadge } from './gaming-test-helpers.ts';
import { DISMISSED_BADGES_KEY, NewBadgeBanner, newestUndismissedBadge, readDismissed } from './new-badge-banner.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => vi.unstubAllGlobals());

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('newestUndismissedBadge', { timeout: 20_000 }, () => {
  it('picks the newest badge of the last 24 hours that was not dismissed', () => {
    const now = Date.now();
    const old = buildBadge('tier_explorer', new Date(now - 25 * HOUR).toISOString());
    const a = buildBadge('explorer', new Date(now - 2 * HOUR).toISOString());
    const b = buildBadge('tier_champion', new Date(now - 1 * HOUR).toISOString());
    expect(newestUndismissedBadge([old, a, b], [], now)?.id).toBe(b.id);
    expect(newestUndismissedBadge([old, a, b], [b.id], now)?.id).toBe(a.id);
    expect(newestUndismissedBadge([old, a, b], [a.id, b.id], now)).toBeNull();
    expect(newestUndismissedBadge([old], [], now)).toBeNull();
  });
});

describe('NewBadgeBanner', { timeout: 20_000 }, () => {
  it('names the newest badge, and a dismissal is remembered per badge across visits', async () => {
    const first = buildBadge('tier_explorer', ago(3 * HOUR));
    const newest = buildBadge('explorer', ago(HOUR));
    let badges = [first, newest];
    stubFetch((url) => (url.pathname === '/api/user/badges' ? json(badges) : undefined));

    const view = renderApp(<NewBadgeBanner />, { user: buildUser({ points: 55 }) });
    const banner = await screen.findByTestId('new-badge-banner');
    expect(banner.textContent).toContain('New Badge Unlocked');
    expect(banner.textContent).toContain('Event Scout');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the Event Scout badge banner' }));
    // The next newest badge of the day takes its place.
    expect(screen.getByTestId('new-badge-banner').textContent).toContain('Explorer');
    expect(readDismissed()).toEqual([newest.id]);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the Explorer badge banner' }));
    expect(screen.queryByTestId('new-badge-banner')).toBeNull();
    expect(JSON.parse(localStorage.getItem(DISMISSED_BADGES_KEY)!)).toEqual([newest.id, first.id]);
    view.unmount();

    // A new visit: still dismissed.
    renderApp(<NewBadgeBanner />, { user: buildUser({ points: 55 }) });
    await waitFor(() => expect(screen.queryByTestId('new-badge-banner')).toBeNull());

    // A badge earned later shows again.
    const later = buildBadge('tier_champion', ago(60_000));
    badges = [first, newest, later];
    const again = renderApp(<NewBadgeBanner />, { user: buildUser({ points: 150 }) });
    expect((await screen.findByTestId('new-badge-banner')).textContent).toContain('Champion');
    again.unmount();
  });

  it('stays hidden for badges older than a day and when nothing is earned', async () => {
    stubFetch((url) => (url.pathname === '/api/user/badges' ? json([buildBadge('tier_explorer', ago(25 * HOUR))]) : undefined));
    const { client } = renderApp(<NewBadgeBanner />, { user: buildUser({ points: 60 }) });
    await waitFor(() => expect(client.getQueryData(['/api/user/badges'])).toBeDefined());
    expect(screen.queryByTestId('new-badge-banner')).toBeNull();
  });

  it('shrugs off a corrupt dismissal store', () => {
    localStorage.setItem(DISMISSED_BADGES_KEY, '{not json');
    expect(readDismissed()).toEqual([]);
    localStorage.setItem(DISMISSED_BADGES_KEY, JSON.stringify({ a: 1 }));
    expect(readDismissed()).toEqual([]);
  });
});
