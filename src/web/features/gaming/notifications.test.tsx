import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { AWARD_ERROR_FALLBACK, AWARD_ERROR_TITLE, useAwardPoints } from './gaming.queries.ts';
import { resetNotifications } from './notification-store.ts';
import { NotificationBell, NotificationCenter, notify, receiveServerNotification } from './notifications.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const cards = () => screen.queryAllByTestId('live-notification');
const titles = () => cards().map((c) => c.querySelector('p')?.textContent);

beforeEach(() => resetNotifications());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  act(() => resetNotifications());
});

describe('NotificationCenter', { timeout: 20_000 }, () => {
  it('hides success and info after 5000 ms and achievements after 8000 ms; errors stay', () => {
    vi.useFakeTimers();
    render(<NotificationCenter />);
    act(() => {
      notify({ type: 'success', title: 'Checked In', message: '+25 points' });
      notify({ type: 'info', title: 'Heads up', message: 'Something changed' });
      notify({ type: 'achievement', title: 'New Badge Unlocked', message: 'Explorer: Reach 50 points' });
      notify({ type: 'error', title: 'Points Error', message: 'Failed to award points. Please try again.' });
    });
    expect(titles()).toEqual(['Checked In', 'Heads up', 'New Badge Unlocked', 'Points Error']);

    act(() => vi.advanceTimersByTime(4999));
    expect(titles()).toEqual(['Checked In', 'Heads up', 'New Badge Unlocked', 'Points Error']);
    act(() => vi.advanceTimersByTime(1));
    expect(titles()).toEqual(['New Badge Unlocked', 'Points Error']);

    act(() => vi.advanceTimersByTime(7999 - 5000));
    expect(titles()).toEqual(['New Badge Unlocked', 'Points Error']);
    act(() => vi.advanceTimersByTime(1));
    expect(titles()).toEqual(['Points Error']);

    // Errors never hide by themselves ...
    act(() => vi.advanceTimersByTime(10 * 60_000));
    expect(titles()).toEqual(['Points Error']);
    // ... but the user can close them.
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification: Points Error' }));
    expect(cards()).toHaveLength(0);
  });

  it('sits in a polite live region and can be dismissed early', () => {
    vi.useFakeTimers();
    render(<NotificationCenter />);
    const region = screen.getByRole('region', { name: 'Live notifications' });
    expect(region.querySelector('[aria-live="polite"]')).not.toBeNull();
    act(() => {
      notify({ type: 'achievement', title: 'New Badge Unlocked', message: 'Champion' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification: New Badge Unlocked' }));
    expect(cards()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(8000));
    expect(cards()).toHaveLength(0);
  });

  it('offers to open the page a realtime notification is about, and goes away when opened', () => {
    const { location } = renderApp(<NotificationCenter />, { user: buildUser() });
    act(() => receiveServerNotification({ id: 'n-cancel', type: 'info', title: 'Saved event cancelled', message: '“Lantern Walk” (Sat, Dec 5 · 6:00 PM) is cancelled, says its source.', timestamp: '2026-11-27T18:00:00.000Z', read: false, autoHide: true, duration: 5000, link: '/events/e1' }));
    const open = screen.getByRole('link', { name: 'Open: Saved event cancelled' });
    expect(open.getAttribute('href')).toBe('/events/e1');
    fireEvent.click(open);
    expect(location.history.at(-1)).toBe('/events/e1');
    expect(cards()).toHaveLength(0);
    // One without a page offers nothing to open.
    act(() => receiveServerNotification({ id: 'n-badge', type: 'achievement', title: 'New Badge Unlocked', message: 'Explorer', timestamp: '2026-11-27T18:00:00.000Z', read: false, autoHide: true, duration: 8000 }));
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows a realtime notification once, whatever its delivery count, and ignores junk', () => {
    render(<NotificationCenter />);
    const n: NotificationResponse = {
      id: '11111111-1111-4111-8111-111111111111',
      type: 'achievement',
      title: 'New Badge Unlocked',
      message: 'Explorer: Reach 50 points',
      timestamp: new Date().toISOString(),
      read: false,
      autoHide: true,
      duration: 8000,
    };
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    act(() => {
      receiveServerNotification(n);
      receiveServerNotification(n);
      receiveServerNotification({ nonsense: true });
    });
    spy.mockRestore();
    expect(titles()).toEqual(['New Badge Unlocked']);
    expect(cards()[0]!.getAttribute('data-type')).toBe('achievement');
  });

  it("a failed award logs 'Failed to award points' and shows a 'Points Error' that stays", async () => {
    stubFetch((url) => (url.pathname === '/api/gaming/award-points' ? json({ code: 'internal', message: 'Internal Server Error' }, { status: 500 }) : undefined));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Award() {
      const award = useAwardPoints();
      return (
        <button type="button" onClick={() => award.mutate({ points: 5, reason: 'AR interaction', activityType: 'ar' })}>
          award
        </button>
      );
    }
    renderApp(
      <>
        <Award />
        <NotificationCenter />
      </>,
      { user: buildUser() },
    );
    fireEvent.click(screen.getByRole('button', { name: 'award' }));
    await waitFor(() => expect(titles()).toEqual([AWARD_ERROR_TITLE]));
    expect(cards()[0]!.textContent).toContain(AWARD_ERROR_FALLBACK);
    expect(log.mock.calls[0]?.[0]).toBe('Failed to award points');
    log.mockRestore();
  });
});

describe('NotificationBell', { timeout: 20_000 }, () => {
  const list = (unread: boolean[]) => ({
    items: unread.map((u, i) => ({
      id: `2222222${i}-2222-4222-8222-222222222222`,
      type: 'success',
      title: `Title ${i}`,
      message: `Message ${i}`,
      // Given oldest first: the bell must still list the newest first.
      timestamp: new Date(Date.now() - (unread.length - i) * 60_000).toISOString(),
      read: !u,
      autoHide: true,
      duration: 5000,
    })),
    unread: unread.filter(Boolean).length,
  });

  it('shows the unread count, lists newest first with unread in bold, and marks all as read', async () => {
    let data = list([false, true, true]);
    const calls: unknown[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/notifications') return json(data);
      if (url.pathname === '/api/notifications/read' && init?.method === 'POST') {
        calls.push(JSON.parse(String(init.body)));
        data = { ...data, items: data.items.map((n) => ({ ...n, read: true })), unread: 0 };
        return json({ unread: 0 });
      }
      return undefined;
    });
    renderApp(<NotificationBell />, { user: buildUser() });
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(screen.getByTestId('notification-count').textContent).toBe('2');

    fireEvent.pointerDown(bell, { button: 0, ctrlKey: false, pointerType: 'mouse' });
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem').filter((i) => i.hasAttribute('data-read'));
    expect(items.map((i) => i.querySelector('p')?.textContent)).toEqual(['Unread: Title 2', 'Unread: Title 1', 'Title 0']);
    expect(items[0]!.querySelector('p')!.className).toContain('font-bold');
    expect(items[2]!.querySelector('p')!.className).toContain('font-normal');

    fireEvent.click(within(menu).getByRole('menuitem', { name: /Mark all as read/ }));
    await waitFor(() => expect(calls).toEqual([{}]));
    await waitFor(() => expect(screen.queryByTestId('notification-count')).toBeNull());
    // Everything now reads as read; the open menu hides the rest of the page from the a11y tree.
    expect(screen.getByRole('button', { name: 'Notifications', hidden: true })).toBeTruthy();
    expect(within(menu).queryAllByText(/^Unread: /)).toHaveLength(0);
  });

  it('opens the page a notification is about (a saved event), marking it read', async () => {
    const calls: unknown[] = [];
    const moved: NotificationResponse = { id: 'n-moved', type: 'info', title: 'Saved event moved', message: '“Lantern Walk” now starts Sat, Dec 5 · 7:00 PM (it was Sat, Dec 5 · 6:00 PM).', timestamp: '2026-11-27T18:00:00.000Z', read: false, autoHide: true, duration: 5000, link: '/events/e1' };
    stubFetch((url, init) => {
      if (url.pathname === '/api/notifications') return json({ items: [moved], unread: 1 });
      if (url.pathname === '/api/notifications/read' && init?.method === 'POST') {
        calls.push(JSON.parse(String(init.body)));
        return json({ unread: 0 });
      }
      return undefined;
    });
    const { location } = renderApp(<NotificationBell />, { user: buildUser() });
    fireEvent.pointerDown(await screen.findByRole('button', { name: 'Notifications, 1 unread' }), { button: 0, ctrlKey: false, pointerType: 'mouse' });
    const item = within(await screen.findByRole('menu')).getByRole('menuitem', { name: /Saved event moved/ });
    fireEvent.click(item);
    await waitFor(() => expect(calls).toEqual([{ ids: ['n-moved'] }]));
    expect(location.history.at(-1)).toBe('/events/e1');
  });

  it("says 'No notifications yet' when there are none", async () => {
    stubFetch((url) => (url.pathname === '/api/notifications' ? json({ items: [], unread: 0 }) : undefined));
    const { client } = renderApp(<NotificationBell />, { user: buildUser() });
    await waitFor(() => expect(client.getQueryData(['/api/notifications'])).toBeDefined());
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Notifications' }), { button: 0, ctrlKey: false, pointerType: 'mouse' });
    expect((await screen.findByRole('menu')).textContent).toContain('No notifications yet');
  });
});
