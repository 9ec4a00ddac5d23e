import { act, fireEvent, screen, within, configure } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { dismissToast } from '../../components/ui/use-toast.ts';
import EventPage, { projectPlaces } from './event-page.tsx';
import { buildDetail, buildUser, json, renderApp, stubFetch } from './test-helpers.tsx';

// Rendering a page of cards in jsdom can take a while on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

const page = (
  <Route path="/events/:id">
    <EventPage />
  </Route>
);

describe('EventPage', { timeout: 30_000 }, () => {
  it("shows admins the event's check-in QR code to print or download, and nobody else", async () => {
    const e = buildDetail({ title: 'Zebra Jazz Quartet' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    const member = renderApp(page, { path: `/events/${e.id}`, user: buildUser() });
    await screen.findByRole('heading', { level: 1, name: 'Zebra Jazz Quartet' });
    expect(screen.queryByRole('button', { name: 'Check-in QR code' })).toBeNull();
    member.unmount();

    renderApp(page, { path: `/events/${e.id}`, user: buildUser({ role: 'admin' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Check-in QR code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check-in QR code' });
    const img = within(dialog).getByRole('img', { name: 'Check-in QR code for Zebra Jazz Quartet' });
    expect(img.getAttribute('src')).toBe(`/api/admin/qr/event/${e.id}?format=svg`);
    expect(within(dialog).getByRole('link', { name: 'Download PNG' }).getAttribute('href')).toBe(`/api/admin/qr/event/${e.id}?format=png`);
    const open = vi.fn(() => null);
    vi.stubGlobal('open', open);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Print' }));
    expect(open).toHaveBeenCalledWith(`/api/admin/qr/event/${e.id}?format=svg`, '_blank');
    // A blocked pop-up says what to do instead.
    expect(await screen.findByText('Print window blocked')).toBeTruthy();
  });

  it('shows the event: title, when in the city zone, venue, price, description, sources, calendar link and map', async () => {
    const e = buildDetail({
      title: 'Zebra Jazz Quartet',
      price: 12.5,
      isFree: false,
      description: 'Line one.\n\n  Indented line.',
      sources: [
        { sourceType: 'meetup', url: 'https://meetup.example/zebra', name: 'Meetup: PDX Jazz' },
        { sourceType: 'municipal', url: 'https://city.example/events/1', name: 'City events feed' },
      ],
    });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'Zebra Jazz Quartet' })).toBeTruthy();
    expect(screen.getByText('Sat, Nov 28 · 7:00 PM')).toBeTruthy();
    expect(screen.getByText('9:00 PM')).toBeTruthy();
    expect(screen.getByText('1332 W Burnside St', { selector: 'dd span' })).toBeTruthy();
    expect(screen.getByTestId('price-label').textContent).toBe('$12.50 per person');
    expect(screen.getByTestId('event-description').textContent).toBe('Line one.\n\n  Indented line.');
    expect(screen.getByTestId('event-description').className).toContain('whitespace-pre-wrap');
    const sources = within(screen.getByTestId('event-sources')).getAllByRole('link');
    expect(sources).toHaveLength(2);
    expect(sources[0]!.getAttribute('href')).toBe('https://meetup.example/zebra');
    expect(sources[0]!.getAttribute('target')).toBe('_blank');
    expect(sources[0]!.getAttribute('rel')).toContain('noopener');
    const cal = screen.getByRole('link', { name: 'Add to calendar' });
    expect(cal.getAttribute('href')).toBe(`/api/events/${e.id}/ics`);
    expect(screen.getByRole('button', { name: 'Add Zebra Jazz Quartet to favorites' })).toBeTruthy();
    const map = screen.getByTestId('mini-map');
    expect(map.querySelectorAll('[data-testid="map-neighbourhood"]')).toHaveLength(4);
    expect(map.querySelector('[data-testid="map-venue"]')).not.toBeNull();
  });

  it('says Event not found for an unknown id, with a way back', async () => {
    stubFetch((url) => (url.pathname.startsWith('/api/events/') ? json({ code: 'not_found', message: 'Event not found' }, { status: 404 }) : undefined));
    renderApp(page, { path: '/events/00000000-0000-4000-8000-999999999999' });
    expect(await screen.findByRole('heading', { name: 'Event not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Discover' }).getAttribute('href')).toBe('/');
  });

  it('copies the link when the browser cannot share', async () => {
    const e = buildDetail({ title: 'Potluck' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    renderApp(page, { path: `/events/${e.id}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledTimes(1);
  });
});

describe('projectPlaces', { timeout: 30_000 }, () => {
  it('keeps north up and east right inside the padded box', () => {
    const [a, b] = projectPlaces([
      { name: 'north-west', lat: 45.6, lng: -122.8 },
      { name: 'south-east', lat: 45.4, lng: -122.5 },
    ]);
    expect(a!.x).toBeLessThan(b!.x);
    expect(a!.y).toBeLessThan(b!.y);
    for (const p of [a!, b!]) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(400);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThanOrEqual(260);
    }
  });
});
