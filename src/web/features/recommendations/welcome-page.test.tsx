import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import WelcomePage from './welcome-page.tsx';

afterEach(() => vi.unstubAllGlobals());

function api(chosen: boolean) {
  const puts: unknown[] = [];
  stubFetch((url, init) => {
    if (url.pathname !== '/api/user/interests') return undefined;
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      puts.push(body);
      return json({ ...body, chosen: true });
    }
    return json({ categories: [], neighbourhoods: [], chosen });
  });
  return puts;
}

describe('WelcomePage', { timeout: 30_000 }, () => {
  it('saves the picked categories and neighbourhoods, then goes on to returnTo', async () => {
    const puts = api(false);
    const { location } = renderApp(<WelcomePage />, { path: '/welcome?returnTo=%2Fstories', user: buildUser() });
    const save = await screen.findByRole('button', { name: 'Save interests' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Music' }));
    fireEvent.click(screen.getByRole('button', { name: 'Alberta Arts' }));
    expect(screen.getByRole('button', { name: 'Music' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(save);
    await waitFor(() => expect(puts).toEqual([{ categories: ['Music'], neighbourhoods: ['Alberta Arts'] }]));
    await waitFor(() => expect(location.history.at(-1)).toBe('/stories'));
  });

  it('skips with empty lists', async () => {
    const puts = api(false);
    const { location } = renderApp(<WelcomePage />, { path: '/welcome', user: buildUser() });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(puts).toEqual([{ categories: [], neighbourhoods: [] }]));
    await waitFor(() => expect(location.history.at(-1)).toBe('/'));
  });

  it('goes straight on once interests were chosen', async () => {
    api(true);
    const { location } = renderApp(<WelcomePage />, { path: '/welcome', user: buildUser() });
    await waitFor(() => expect(location.history.at(-1)).toBe('/'));
  });
});
