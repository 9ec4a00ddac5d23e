import { act, fireEvent, screen, waitFor, within, configure } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { EventCard, EventCardSkeleton } from './event-card.tsx';
import { formatEventEnd, formatEventWhen } from './events.queries.ts';
import { buildEvent, buildUser, json, renderApp, stubFetch } from './test-helpers.tsx';
import { FAVORITE_REDIRECT_MS, loginNavigation } from './use-toggle-favorite.ts';

// Rendering a page of cards in jsdom can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const realGo = loginNavigation.go;
afterEach(() => {
  loginNavigation.go = realGo;
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

describe('formatEventWhen', { timeout: 30_000 }, () => {
  const now = new Date('2026-11-27T18:00:00Z');
  it('formats the start in the city zone, not the browser zone', () => {
    const e = { startDate: '2026-11-29T03:00:00.000Z', allDay: false };
    expect(formatEventWhen(e, 'America/Los_Angeles', 'en-US', now)).toBe('Sat, Nov 28 · 7:00 PM');
    expect(formatEventWhen(e, 'Europe/Berlin', 'en-US', now)).toBe('Sun, Nov 29 · 4:00 AM');
  });
  it('says All day for all-day events', () => {
    expect(formatEventWhen({ startDate: '2026-11-28T08:00:00.000Z', allDay: true }, 'America/Los_Angeles', 'en-US', now)).toBe('Sat, Nov 28 · All day');
  });
});

describe('formatEventEnd', { timeout: 30_000 }, () => {
  const tz = 'America/Los_Angeles';
  const now = new Date('2026-11-27T18:00:00Z');
  it('gives only the time when the event ends the day it starts', () => {
    expect(formatEventEnd({ startDate: '2026-11-29T03:00:00.000Z', endDate: '2026-11-29T05:30:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('9:30 PM');
  });
  it('gives the day without a year when it ends another day this year', () => {
    expect(formatEventEnd({ startDate: '2026-11-29T03:00:00.000Z', endDate: '2026-11-30T05:30:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Sun, Nov 29 · 9:30 PM');
  });
  it('gives the year when it ends on a day of another year', () => {
    expect(formatEventEnd({ startDate: '2026-12-31T20:00:00.000Z', endDate: '2027-01-01T10:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Fri, Jan 1, 2027 · 2:00 AM');
    expect(formatEventEnd({ startDate: '2027-12-04T08:00:00.000Z', endDate: '2027-12-06T08:00:00.000Z', allDay: true }, tz, 'en-US', now)).toBe('Sun, Dec 5, 2027');
  });
  it('does not take the same date a year later for the same day', () => {
    expect(formatEventEnd({ startDate: '2026-11-29T03:00:00.000Z', endDate: '2027-11-29T04:00:00.000Z', allDay: false }, tz, 'en-US', now)).toBe('Sun, Nov 28, 2027 · 8:00 PM');
  });
});

describe('EventCard', { timeout: 30_000 }, () => {
  it('shows the facts: title link, category, date in the city zone, venue, price, attendees, source', () => {
    const e = buildEvent({ title: 'Zebra Jazz Quartet', price: 15, isFree: false, sourceType: 'eventbrite', neighbourhood: 'Pearl District' });
    renderApp(<EventCard event={e} />);
    const card = screen.getByRole('article');
    const link = within(card).getByRole('link', { name: 'Zebra Jazz Quartet' });
    expect(link.getAttribute('href')).toBe(`/events/${e.id}`);
    expect(within(card).getByRole('heading', { level: 3 }).textContent).toBe('Zebra Jazz Quartet');
    expect(within(card).getByText('Music')).toBeTruthy();
    expect(within(card).getByText('Sat, Nov 28 · 7:00 PM')).toBeTruthy();
    expect(within(card).getByText(/Crystal Ballroom · Pearl District/)).toBeTruthy();
    expect(within(card).getByTestId('price-label').textContent).toBe('$15 per person');
    expect(within(card).getByText('42 attendees')).toBeTruthy();
    expect(within(card).getByTestId('source-type').textContent).toBe('eventbrite');
  });

  it('says the year of an event in another year, so one two years ahead does not read as this year', () => {
    const year = new Date().getFullYear() + 2;
    renderApp(<EventCard event={buildEvent({ title: 'Far Ahead', startDate: `${year}-10-20T19:00:00.000Z` })} />);
    const card = screen.getByRole('article');
    expect(within(card).getByText(new RegExp(`^[A-Z][a-z]{2}, Oct 20, ${year} · 12:00 PM$`))).toBeTruthy();
  });

  it('says every day of an all-day event over several days, not its first alone', () => {
    const year = new Date().getFullYear() + 1;
    // Dec 11 to 13 in Portland: the end is the midnight that starts Dec 14.
    renderApp(<EventCard event={buildEvent({ title: 'Winter Craft Fair', allDay: true, startDate: `${year}-12-11T08:00:00.000Z`, endDate: `${year}-12-14T08:00:00.000Z` })} />);
    const card = screen.getByRole('article');
    expect(within(card).getByText(new RegExp(`^[A-Z][a-z]{2}, Dec 11, ${year} – [A-Z][a-z]{2}, Dec 13, ${year} · All day$`))).toBeTruthy();
  });

  it('labels free events Free (spec section 5)', () => {
    renderApp(<EventCard event={buildEvent({ isFree: false, price: null })} variant="list" />);
    expect(screen.getByTestId('price-label').textContent).toBe('Free');
  });

  it('draws the category pattern when there is no image, and when the image fails', () => {
    const { unmount } = renderApp(<EventCard event={buildEvent({ imageUrl: null, category: 'Arts' })} />);
    expect(screen.getByTestId('category-pattern')).toBeTruthy();
    unmount();
    const { container } = renderApp(<EventCard event={buildEvent({ imageUrl: 'https://img.example/broken.jpg' })} />);
    const img = container.querySelector('img');
    expect(img).not.toBeNull();
    expect(screen.queryByTestId('category-pattern')).toBeNull();
    fireEvent.error(img!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('category-pattern')).toBeTruthy();
  });

  it('shows a recurring event once with its further dates: +1 more date, +5 more dates', () => {
    const { unmount } = renderApp(<EventCard event={buildEvent({ moreDates: 5 })} />);
    expect(screen.getByTestId('more-dates').textContent).toBe(' · +5 more dates');
    unmount();
    renderApp(<EventCard event={buildEvent({ moreDates: 1 })} variant="list" />);
    expect(screen.getByTestId('more-dates').textContent).toBe(' · +1 more date');
  });

  it('shows no further dates for a one-off event', () => {
    renderApp(<EventCard event={buildEvent({ moreDates: 0 })} />);
    expect(screen.queryByTestId('more-dates')).toBeNull();
  });

  it("shows a price range and the source's words about it", () => {
    const { unmount } = renderApp(<EventCard event={buildEvent({ price: 12, priceMax: 15, isFree: false, priceNote: 'advance' })} />);
    expect(screen.getByTestId('price-label').textContent).toBe('$12–15 per person');
    expect(screen.getByText('· advance', { exact: false })).toBeTruthy();
    unmount();
    renderApp(<EventCard event={buildEvent({ price: null, isFree: false, priceNote: 'pay what you can' })} />);
    expect(screen.getByTestId('price-label').textContent).toBe('Pay what you can');
  });

  it('offers the kept copies of the image as a srcset', () => {
    const srcset = '/api/images/abc/320.webp 320w, /api/images/abc/640.webp 640w';
    const { container } = renderApp(<EventCard event={buildEvent({ imageUrl: '/api/images/abc/640.webp', imageSrcset: srcset })} />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('srcset')).toBe(srcset);
    expect(img.getAttribute('sizes')).toContain('vw');
  });

  it('has a skeleton with the card shape', () => {
    const { container } = renderApp(<EventCardSkeleton />);
    expect(container.querySelector('[data-testid="event-card-skeleton"] .aspect-video')).not.toBeNull();
  });
});

describe('favouriting from a card', { timeout: 30_000 }, () => {
  it('signed out: Login Required, then the login page after 500 ms', async () => {
    let calledAt = 0;
    const go = vi.fn(() => {
      calledAt = Date.now();
    });
    loginNavigation.go = go;
    const fetch = stubFetch(() => undefined);
    const e = buildEvent({ title: 'Zebra Jazz Quartet' });
    renderApp(<EventCard event={e} />, { user: null });
    const clickedAt = Date.now();
    fireEvent.click(screen.getByRole('button', { name: 'Add Zebra Jazz Quartet to favorites' }));
    expect(await screen.findByText('Login Required')).toBeTruthy();
    expect(screen.getByText('Please log in to save favorites')).toBeTruthy();
    await waitFor(() => expect(go).toHaveBeenCalledTimes(1), { timeout: 2000 });
    expect(calledAt - clickedAt).toBeGreaterThanOrEqual(FAVORITE_REDIRECT_MS - 20);
    expect(go.mock.calls[0]).toEqual([`/api/login?returnTo=${encodeURIComponent(window.location.pathname)}`]);
    expect(fetch.mock.calls.filter(([u]) => String(u).includes('/api/user/favorites'))).toHaveLength(0);
  });

  it('signed in: the heart follows the answer and the user and events are refreshed', async () => {
    const e = buildEvent({ title: 'Zebra Jazz Quartet' });
    let favorited = false;
    const fetch = stubFetch((url, init) => {
      if (url.pathname === `/api/user/favorites/${e.id}` && init?.method === 'POST') {
        favorited = !favorited;
        return json({ isFavorited: favorited });
      }
      if (url.pathname === '/api/auth/user') return json(buildUser({ points: 5 }));
    });
    const { client } = renderApp(<EventCard event={e} />, { user: buildUser() });
    const heart = screen.getByRole('button', { name: 'Add Zebra Jazz Quartet to favorites' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('true'));
    expect(heart.getAttribute('aria-label')).toBe('Remove Zebra Jazz Quartet from favorites');
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u) === '/api/auth/user')).toBe(true));
    await waitFor(() => expect((client.getQueryData(['/api/auth/user']) as { points: number }).points).toBe(5));
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('false'));
  });

  it('a 401 from the server: Unauthorized, then the login page', async () => {
    const go = vi.fn();
    loginNavigation.go = go;
    stubFetch((url) => (url.pathname.startsWith('/api/user/favorites/') ? json({ code: 'unauthorized', message: 'Sign in' }, { status: 401 }) : undefined));
    renderApp(<EventCard event={buildEvent({ title: 'Gig' })} />, { user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Add Gig to favorites' }));
    expect(await screen.findByText('Unauthorized')).toBeTruthy();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeTruthy();
    await waitFor(() => expect(go).toHaveBeenCalledTimes(1), { timeout: 2000 });
    expect(screen.getByRole('button', { name: 'Add Gig to favorites' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('another failure: Error / Failed to update favorite, no redirect', async () => {
    const go = vi.fn();
    loginNavigation.go = go;
    stubFetch((url) => (url.pathname.startsWith('/api/user/favorites/') ? json({ code: 'internal', message: 'boom' }, { status: 500 }) : undefined));
    renderApp(<EventCard event={buildEvent({ title: 'Gig' })} />, { user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Add Gig to favorites' }));
    expect(await screen.findByText('Failed to update favorite')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    await new Promise((r) => setTimeout(r, FAVORITE_REDIRECT_MS + 100));
    expect(go).not.toHaveBeenCalled();
  });
});
