import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { GamingProgressWidget } from './gaming-progress-widget.tsx';
import { buildProgress } from './gaming-test-helpers.ts';
import { PointsBanner } from './points-banner.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => vi.unstubAllGlobals());

async function widgetFor(points: number, over: Parameters<typeof buildProgress>[0] = {}) {
  stubFetch((url) => (url.pathname === '/api/gaming/progress' ? json(buildProgress({ points, level: 1 + Math.floor(points / 100), ...over })) : undefined));
  const view = renderApp(<GamingProgressWidget />, { user: buildUser({ points }) });
  await waitFor(() => expect(view.client.getQueryData(['/api/gaming/progress'])).toBeDefined());
  return view;
}

describe('GamingProgressWidget', { timeout: 20_000 }, () => {
  it.each([
    [0, 'Explorer', 50],
    [49, 'Explorer', 50],
    [50, 'Champion', 150],
    [149, 'Champion', 150],
    [150, 'Local Legend', 300],
    [299, 'Local Legend', 300],
  ])('at %i points the next badge is %s at %i', async (points, name, target) => {
    const view = await widgetFor(points);
    const next = screen.getByTestId('gaming-next-badge');
    expect(next.textContent).toContain(`Next badge: ${name}`);
    expect(next.textContent).toContain(`${points} / ${target}`);
    const bar = screen.getByRole('progressbar', { name: `Progress to ${name}` });
    expect(bar.getAttribute('aria-valuemax')).toBe(String(target));
    expect(bar.getAttribute('aria-valuenow')).toBe(String(points));
    view.unmount();
  });

  it('from 300 points there is no next badge', async () => {
    await widgetFor(320);
    expect(screen.getByTestId('gaming-next-badge').textContent).toContain('Every tier badge earned');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows level, points, badges, events attended and merchants visited', async () => {
    await widgetFor(175, { badges: ['Explorer', 'Champion', 'Event Scout'], eventsAttended: 4, merchantsVisited: 2 });
    expect(screen.getByTestId('gaming-level').textContent).toBe('Level 2');
    expect(screen.getByTestId('gaming-points').textContent).toBe('175 points');
    expect(within(screen.getByRole('list', { name: 'Your badges' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Explorer', 'Champion', 'Event Scout']);
    expect(screen.getByTestId('gaming-events-attended').textContent).toBe('4');
    expect(screen.getByTestId('gaming-merchants-visited').textContent).toBe('2');
  });

  it('defaults to level 1 and no badges before progress arrives', () => {
    stubFetch(() => new Promise<Response>(() => undefined));
    renderApp(<GamingProgressWidget />, { user: buildUser({ points: 0 }) });
    expect(screen.getByTestId('gaming-level').textContent).toBe('Level 1');
    expect(screen.getByText('No badges earned yet')).toBeTruthy();
  });
});

describe('PointsBanner', { timeout: 20_000 }, () => {
  it('is hidden at 0 points and uses the banner reading: Local Legend! from 150', async () => {
    stubFetch((url) => (url.pathname === '/api/gaming/progress' ? json(buildProgress({ points: 150, badges: ['Explorer', 'Champion'] })) : undefined));
    const none = renderApp(<PointsBanner />, { user: buildUser({ points: 0 }) });
    expect(screen.queryByRole('region', { name: 'Your points' })).toBeNull();
    none.unmount();

    const mid = renderApp(<PointsBanner />, { user: buildUser({ points: 65 }) });
    expect(screen.getByTestId('next-badge').textContent).toBe('Next badge: Champion at 150 points (85 to go)');
    mid.unmount();

    renderApp(<PointsBanner />, { user: buildUser({ points: 150 }) });
    const banner = screen.getByRole('region', { name: 'Your points' });
    expect(within(banner).getByTestId('banner-points').textContent).toBe('150 points');
    expect(within(banner).getByTestId('next-badge').textContent).toBe('Local Legend!');
    expect((await within(banner).findByTestId('banner-badges')).textContent).toBe('2 badges');
  });
});
