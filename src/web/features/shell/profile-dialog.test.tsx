import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BADGES, BADGE_TYPES } from '../../../contract/gaming.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { buildActivity, buildBadge } from '../gaming/gaming-test-helpers.ts';
import { PROFILE_BADGE_LIMIT, ProfileDialog } from './profile-dialog.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => vi.unstubAllGlobals());

const STATS = { points: 0, level: 1, eventsAttended: 0, eventsDiscovered: 0, contributionsCount: 0, streak: 0 };

function tile(dialog: HTMLElement, label: string) {
  const dt = within(dialog).getByText(label, { selector: 'dt' });
  return dt.parentElement!.querySelector('dd')!.textContent;
}

describe('ProfileDialog', { timeout: 20_000 }, () => {
  it('shows the empty states of a new member', async () => {
    stubFetch((url) => {
      if (url.pathname === '/api/user/stats') return json(STATS);
      if (url.pathname === '/api/user/badges') return json([]);
      if (url.pathname === '/api/user/activities') return json([]);
      return undefined;
    });
    renderApp(<ProfileDialog open onOpenChange={() => undefined} />, { user: buildUser({ firstName: 'Pat', lastName: 'Person', points: 0 }) });
    const dialog = screen.getByRole('dialog', { name: 'Your Community Profile' });
    expect(within(dialog).getByText('Pat Person')).toBeTruthy();
    expect(within(dialog).getByText('Event Explorer')).toBeTruthy();
    expect(within(dialog).getByText('Discovery Points')).toBeTruthy();
    expect(await within(dialog).findByText('No badges earned yet')).toBeTruthy();
    expect(await within(dialog).findByText('No activity yet')).toBeTruthy();
    await waitFor(() => expect(tile(dialog, 'Events Attended')).toBe('0'));
    for (const label of ['Events Discovered', 'Contributions', 'Day Streak']) expect(tile(dialog, label)).toBe('0');
    // How badges are earned: every badge with its rule.
    const rules = within(dialog).getByTestId('badge-rules');
    expect(within(rules).getAllByRole('listitem')).toHaveLength(BADGE_TYPES.length);
    expect(rules.textContent).toContain(`${BADGES.regular.title}:${BADGES.regular.rule}`);
  });

  it('falls back to the email, and shows stats, up to 6 badges and recent activity', async () => {
    const badges = BADGE_TYPES.map((t, i) => buildBadge(t, new Date(Date.UTC(2026, 0, 1 + i)).toISOString()));
    stubFetch((url) => {
      if (url.pathname === '/api/user/stats') return json({ ...STATS, points: 320, eventsAttended: 3, eventsDiscovered: 12, contributionsCount: 2, streak: 7 });
      if (url.pathname === '/api/user/badges') return json(badges);
      if (url.pathname === '/api/user/activities') return json([buildActivity({ description: 'Checked in at Zebra Jazz Quartet', pointsEarned: 25 })]);
      return undefined;
    });
    renderApp(<ProfileDialog open onOpenChange={() => undefined} />, { user: buildUser({ firstName: null, lastName: null, email: 'solo@example.test', points: 320 }) });
    const dialog = screen.getByRole('dialog', { name: 'Your Community Profile' });
    expect(within(dialog).getByText('solo@example.test')).toBeTruthy();
    expect(within(dialog).getByTestId('profile-points').textContent).toBe('320');
    const shown = await within(dialog).findByTestId('profile-badges');
    const items = within(shown).getAllByRole('listitem');
    expect(items).toHaveLength(PROFILE_BADGE_LIMIT);
    // Newest first: the oldest (tier_explorer) is the one left out.
    expect(items.map((li) => li.querySelector('[data-badge-type]')!.getAttribute('data-badge-type'))).toEqual([...BADGE_TYPES].reverse().slice(0, 6));
    expect(items[0]!.textContent).toContain(BADGES.cultural.rule);
    await waitFor(() => expect(tile(dialog, 'Day Streak')).toBe('7'));
    expect(tile(dialog, 'Events Attended')).toBe('3');
    expect(tile(dialog, 'Events Discovered')).toBe('12');
    expect(tile(dialog, 'Contributions')).toBe('2');
    const activity = await within(dialog).findByTestId('profile-activity');
    expect(activity.textContent).toContain('Checked in at Zebra Jazz Quartet');
    expect(activity.textContent).toContain('+25');
  });

  it('asks for nothing while closed', () => {
    const fetchFn = stubFetch(() => undefined);
    renderApp(<ProfileDialog open={false} onOpenChange={() => undefined} />, { user: buildUser() });
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it("turns off appearing in other people's Community Buzz", async () => {
    const patches: unknown[] = [];
    let settings = { leaderboardOptOut: false, buzzOptOut: false };
    stubFetch((url, init) => {
      if (url.pathname === '/api/user/stats') return json(STATS);
      if (url.pathname === '/api/user/badges' || url.pathname === '/api/user/activities') return json([]);
      if (url.pathname === '/api/user/profile') {
        if (init?.method === 'PATCH') {
          const body = JSON.parse(String(init.body)) as Partial<typeof settings>;
          patches.push(body);
          settings = { ...settings, ...body };
        }
        return json(settings);
      }
      return undefined;
    });
    renderApp(<ProfileDialog open onOpenChange={() => undefined} />, { user: buildUser() });
    const toggle = await screen.findByRole('switch', { name: 'Show my activity in Community Buzz' });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() => expect(patches).toEqual([{ buzzOptOut: true }]));
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
  });
});
