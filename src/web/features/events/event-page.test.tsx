import { act, fireEvent, screen, waitFor, within, configure } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { lastDiscover, rememberDiscover } from '../discover/last-discover.ts';
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
    expect(screen.queryByTestId('not-listed')).toBeNull();
    // The times are Portland's: said, since this test's clock is elsewhere (UTC).
    // Its zone's name on the event's own date (buildDetail: late November, standard time).
    if (Intl.DateTimeFormat().resolvedOptions().timeZone !== 'America/Los_Angeles') expect(screen.getByTestId('city-time').textContent).toBe('Portland time (PST)');
    else expect(screen.queryByTestId('city-time')).toBeNull();
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

  it("lists a recurring event's upcoming dates, this one marked and the others linked", async () => {
    const e = buildDetail({
      title: 'Tuesday Jazz Jam',
      attendeeCount: 7,
      dates: [
        { id: 'a', startDate: '2026-11-25T03:00:00.000Z', endDate: '2026-11-25T05:00:00.000Z' },
        { id: 'b', startDate: '2026-12-02T03:00:00.000Z', endDate: '2026-12-02T05:00:00.000Z' },
        { id: 'c', startDate: '2026-12-09T03:00:00.000Z', endDate: '2026-12-09T05:00:00.000Z' },
      ],
    });
    e.dates[1]!.id = e.id;
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}` });
    const list = await screen.findByTestId('series-dates');
    expect(within(list).getByText('3 upcoming dates')).toBeTruthy();
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/events/a', '/events/c']);
    expect(list.querySelector('[aria-current="date"]')?.textContent).toBe('Tue, Dec 1 · 7:00 PM');
    expect(screen.getByTestId('attendee-count').textContent).toBe('7 attendees');
  });

  it("names a demo event's sources without a link to pages that do not exist", async () => {
    const e = buildDetail({ title: 'Tuesday Jazz Jam', isDemo: true, sources: [{ sourceType: 'ical', url: 'https://demo.townbeat.local/music/tuesday-jazz-jam', name: 'PDX Music Venues (demo)' }] });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}` });
    const sources = await screen.findByTestId('event-sources');
    expect(within(sources).queryByRole('link')).toBeNull();
    expect(sources.textContent).toContain('PDX Music Venues (demo)');
    expect(sources.textContent).toContain('demo content, no page of its own');
  });

  it('says when every source dropped the event: kept for people who saved it, no longer listed', async () => {
    const e = buildDetail({ title: 'Winter Lantern Walk', removedBySource: true, sources: [{ sourceType: 'rss', url: 'https://news.example/lanterns', name: 'Community news' }] });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    const removed = renderApp(page, { path: `/events/${e.id}` });
    const notice = await screen.findByTestId('removed-by-source');
    expect(within(notice).getByRole('heading', { name: 'Removed by the source' })).toBeTruthy();
    expect(notice.textContent).toContain('no longer listed');
    expect(notice.textContent).toContain('kept for people who saved it');
    // The sources still show as they did.
    expect(within(screen.getByTestId('event-sources')).getByRole('link').getAttribute('href')).toBe('https://news.example/lanterns');
    removed.unmount();

    // A source said it is cancelled: the page says that, not only that it left the feed.
    const c = buildDetail({ title: 'Autumn Lantern Walk', removedBySource: true, cancelledBySource: true });
    stubFetch((url) => (url.pathname === `/api/events/${c.id}` ? json(c) : undefined));
    const cancelled = renderApp(page, { path: `/events/${c.id}` });
    const told = await screen.findByTestId('removed-by-source');
    expect(within(told).getByRole('heading', { name: 'Cancelled' })).toBeTruthy();
    expect(told.textContent).toContain('says it is cancelled');
    expect(within(told).queryByText('Removed by the source')).toBeNull();
    cancelled.unmount();

    // A source said it is postponed: the page says so, and that no new date is given yet.
    const p = buildDetail({ title: 'Spring Lantern Walk', removedBySource: true, postponedBySource: true });
    stubFetch((url) => (url.pathname === `/api/events/${p.id}` ? json(p) : undefined));
    const postponed = renderApp(page, { path: `/events/${p.id}` });
    const put = await screen.findByTestId('removed-by-source');
    expect(within(put).getByRole('heading', { name: 'Postponed' })).toBeTruthy();
    expect(put.textContent).toContain('says it is postponed');
    expect(put.textContent).toContain('no new date yet');
    expect(within(put).queryByText('Removed by the source')).toBeNull();
    expect(within(put).queryByText('Cancelled')).toBeNull();
    postponed.unmount();

    const listed = buildDetail({ title: 'Summer Lantern Walk' });
    stubFetch((url) => (url.pathname === `/api/events/${listed.id}` ? json(listed) : undefined));
    renderApp(page, { path: `/events/${listed.id}` });
    await screen.findByRole('heading', { level: 1, name: 'Summer Lantern Walk' });
    expect(screen.queryByText('Removed by the source')).toBeNull();
  });

  it('says when sources disagree: one calls the event off while another still lists it', async () => {
    // The event's own source cancelled it; the blog's record merged into it still lists it.
    const c = buildDetail({ title: 'Poetry Reading', removedBySource: true, cancelledBySource: true, calledOffBy: [{ name: 'Central Library', kind: 'cancelled' }], stillListedBy: ['Poetry Blog'] });
    stubFetch((url) => (url.pathname === `/api/events/${c.id}` ? json(c) : undefined));
    const cancelled = renderApp(page, { path: `/events/${c.id}` });
    const told = await screen.findByTestId('removed-by-source');
    expect(within(told).getByRole('heading', { name: 'Cancelled' })).toBeTruthy();
    expect(told.textContent).toContain('Central Library says it is cancelled, so it is no longer listed. Poetry Blog still lists it: check with the organiser before you give up on it.');
    cancelled.unmount();

    // The other way round: listed, as its own source still lists it; the page says two sources say otherwise.
    const l = buildDetail({ title: 'Poetry Reading', calledOffBy: [{ name: 'Poetry Blog', kind: 'postponed' }, { name: 'City Arts', kind: 'cancelled' }], stillListedBy: ['Central Library'] });
    stubFetch((url) => (url.pathname === `/api/events/${l.id}` ? json(l) : undefined));
    renderApp(page, { path: `/events/${l.id}` });
    const notice = await screen.findByTestId('sources-disagree');
    expect(within(notice).getByRole('heading', { name: 'Sources disagree' })).toBeTruthy();
    expect(notice.textContent).toContain('Poetry Blog says it is postponed; City Arts says it is cancelled, while Central Library still lists it, so it stays listed.');
    expect(screen.queryByTestId('removed-by-source')).toBeNull();
  });

  it('lets admins split a merged event back into its sources after confirming, then refreshes it', async () => {
    const sources = [
      { sourceType: 'ical', url: 'https://arts.example/murals', name: 'Arts calendar' },
      { sourceType: 'rss', url: 'https://news.example/murals', name: 'Community news' },
    ];
    let detail = buildDetail({ title: 'Artist Talk: Murals of the Eastside', mergedRecords: 1, sources });
    const fetchFn = stubFetch((url, init) => {
      if (url.pathname === `/api/events/${detail.id}`) return json(detail);
      if (url.pathname === `/api/admin/events/${detail.id}/split` && init?.method === 'POST') {
        detail = { ...detail, mergedRecords: 0, sources: sources.slice(0, 1) };
        return json({ eventId: detail.id, restored: ['00000000-0000-4000-8000-0000000000ff'] });
      }
      return undefined;
    });
    // Not for other people, and not for an event with a single source.
    const member = renderApp(page, { path: `/events/${detail.id}`, user: buildUser() });
    await screen.findByRole('heading', { level: 1, name: 'Artist Talk: Murals of the Eastside' });
    expect(screen.queryByRole('button', { name: 'Split into sources' })).toBeNull();
    member.unmount();

    renderApp(page, { path: `/events/${detail.id}`, user: buildUser({ role: 'admin' }) });
    expect(await screen.findByText('1 record from another source is merged into this event.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Split into sources' }));
    const dialog = await screen.findByRole('dialog', { name: 'Split into sources?' });
    // Cancel does nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchFn.mock.calls.some(([u]) => String(u).endsWith('/split'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Split into sources' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Split into sources?' })).getByRole('button', { name: 'Split' }));
    expect((await screen.findAllByText('Event split into sources')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('1 listing is on its own again.').length).toBeGreaterThan(0);
    // Refreshed: one source left, nothing more to split.
    await waitFor(() => expect(within(screen.getByTestId('event-sources')).getAllByRole('link')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Split into sources' })).toBeNull();
    expect(screen.queryByTestId('merged-records')).toBeNull();
    expect(fetchFn.mock.calls.filter(([u, init]) => String(u) === `/api/admin/events/${detail.id}/split` && init?.method === 'POST')).toHaveLength(1);
  });

  it('lets admins split one record out of an event that holds several, naming each by its source', async () => {
    const detail = buildDetail({ title: 'Trivia Night', mergedRecords: 2 });
    const records = [
      { id: '00000000-0000-4000-8000-0000000000a1', title: 'Trivia Night at Migration Brewing', startDate: '2026-12-03T03:00:00.000Z', venue: 'Migration Brewing', sourceNames: ['Blog'], dropped: false },
      { id: '00000000-0000-4000-8000-0000000000a2', title: 'Trivia Night - Kids Edition', startDate: '2026-12-03T03:10:00.000Z', venue: 'Migration Brewing', sourceNames: ['Third Sheet'], dropped: false },
    ];
    const fetchFn = stubFetch((url, init) => {
      if (url.pathname === `/api/events/${detail.id}`) return json(detail);
      if (url.pathname === `/api/admin/events/${detail.id}/records`) return json(records);
      if (url.pathname === `/api/admin/events/${detail.id}/split` && init?.method === 'POST') return json({ eventId: detail.id, restored: [records[1]!.id] });
      return undefined;
    });
    renderApp(page, { path: `/events/${detail.id}`, user: buildUser({ role: 'admin' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Split into sources' }));
    const dialog = await screen.findByRole('dialog', { name: 'Split into sources?' });
    const list = await within(dialog).findByRole('list', { name: 'Records merged into this event' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Blog'),
      expect.stringContaining('Third Sheet'),
    ]);
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toContain('Trivia Night - Kids Edition');
    expect(within(dialog).getByRole('button', { name: 'Split all' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Split out Third Sheet' }));
    expect((await screen.findAllByText('1 listing is on its own again.')).length).toBeGreaterThan(0);
    const posts = fetchFn.mock.calls.filter(([u, init]) => String(u) === `/api/admin/events/${detail.id}/split` && init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ recordId: records[1]!.id });
  });

  it("shows the server's reason when a split is refused", async () => {
    const e = buildDetail({ title: 'Quilting Circle', mergedRecords: 1 });
    stubFetch((url, init) => {
      if (url.pathname === `/api/events/${e.id}`) return json(e);
      if (url.pathname.endsWith('/split') && init?.method === 'POST') return json({ code: 'conflict', message: 'This event has a single source: nothing to split' }, { status: 409 });
      return undefined;
    });
    renderApp(page, { path: `/events/${e.id}`, user: buildUser({ role: 'admin' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Split into sources' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Split into sources?' })).getByRole('button', { name: 'Split' }));
    expect((await screen.findAllByText('Could not split the event')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('This event has a single source: nothing to split').length).toBeGreaterThan(0);
  });

  it('says Event not found for an unknown id, with a way back', async () => {
    stubFetch((url) => (url.pathname.startsWith('/api/events/') ? json({ code: 'not_found', message: 'Event not found' }, { status: 404 }) : undefined));
    renderApp(page, { path: '/events/00000000-0000-4000-8000-999999999999' });
    expect(await screen.findByRole('heading', { name: 'Event not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Discover' }).getAttribute('href')).toBe('/');
  });

  it("names the city's zone as it is on the event's date: daylight time in July, whatever today is", async () => {
    const e = buildDetail({ title: 'Summer Concert', startDate: '2027-07-10T02:00:00.000Z', endDate: '2027-07-10T04:00:00.000Z' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}` });
    await screen.findByRole('heading', { name: 'Summer Concert' });
    if (Intl.DateTimeFormat().resolvedOptions().timeZone !== 'America/Los_Angeles') expect(screen.getByTestId('city-time').textContent).toBe('Portland time (PDT)');
    else expect(screen.queryByTestId('city-time')).toBeNull();
  });

  it('shows an end time only when the source gave one', async () => {
    const given = buildDetail({ id: '00000000-0000-4000-8000-0000000000e1', title: 'Late Set', startDate: '2026-11-26T04:00:00.000Z', endDate: '2026-11-26T06:30:00.000Z', endGiven: true });
    const filled = buildDetail({ id: '00000000-0000-4000-8000-0000000000e2', title: 'Open Mic', startDate: '2026-11-26T03:30:00.000Z', endDate: '2026-11-26T05:30:00.000Z', endGiven: false });
    stubFetch((url) => [given, filled].map((e) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined)).find(Boolean));
    const shown = renderApp(page, { path: `/events/${given.id}` });
    await screen.findByRole('heading', { name: 'Late Set' });
    const end = document.querySelector(`time[datetime="${given.endDate}"]`);
    expect(end?.textContent).toBe('10:30 PM');
    shown.unmount();

    renderApp(page, { path: `/events/${filled.id}` });
    await screen.findByRole('heading', { name: 'Open Mic' });
    // Listed until two hours after its start, but the page does not say it ends then.
    expect(document.querySelector(`time[datetime="${filled.startDate}"]`)).not.toBeNull();
    expect(document.querySelector(`time[datetime="${filled.endDate}"]`)).toBeNull();
    expect(screen.queryByText('9:30 PM', { exact: false })).toBeNull();
  });

  it('says an event waiting for review or turned down is not listed', async () => {
    const e = buildDetail({ title: 'Sellwood Harvest Fair', status: 'pending' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}`, user: buildUser() });
    const note = await screen.findByTestId('not-listed');
    expect(note.textContent).toBe('Waiting for reviewThis event is not listed yet: only whoever sent it and the admins can see this page until an admin approves it.');
  });

  it('says an event has ended, offers no calendar entry for it, and keeps the heart to remember it', async () => {
    const e = buildDetail({ title: 'Harvest Moon Ceilidh', ended: true });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    const ended = renderApp(page, { path: `/events/${e.id}`, user: buildUser() });
    const note = await screen.findByTestId('event-ended');
    expect(within(note).getByRole('heading', { name: 'This event has ended' })).toBeTruthy();
    expect(note.textContent).toContain('saving an event that has ended earns no points');
    expect(screen.queryByRole('link', { name: 'Add to calendar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Harvest Moon Ceilidh to favorites' })).toBeTruthy();
    ended.unmount();

    const upcoming = buildDetail({ title: 'Winter Ceilidh' });
    stubFetch((url) => (url.pathname === `/api/events/${upcoming.id}` ? json(upcoming) : undefined));
    renderApp(page, { path: `/events/${upcoming.id}`, user: buildUser() });
    await screen.findByRole('heading', { level: 1, name: 'Winter Ceilidh' });
    expect(screen.queryByTestId('event-ended')).toBeNull();
    expect(screen.queryByText('This event has ended')).toBeNull();
    expect(screen.getByRole('link', { name: 'Add to calendar' })).toBeTruthy();
  });

  it('tells an admin a turned-down event is not listed', async () => {
    const e = buildDetail({ title: 'Spam Night', status: 'rejected' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}`, user: buildUser({ role: 'admin' }) });
    expect((await screen.findByTestId('not-listed')).textContent).toBe('Not listedAn admin turned this event down in review: only admins, and members who had saved it, can see this page.');
    expect(screen.queryByTestId('removed-from-townbeat')).toBeNull();
  });

  it('tells a member who saved a turned-down event that it was removed from Townbeat, not that only admins can see it', async () => {
    const e = buildDetail({ title: 'Harvest Supper', status: 'rejected', isFavorited: true });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    renderApp(page, { path: `/events/${e.id}`, user: buildUser() });
    const notice = await screen.findByTestId('removed-from-townbeat');
    expect(within(notice).getByRole('heading', { name: 'Removed from Townbeat' })).toBeTruthy();
    expect(notice.textContent).toContain('An admin removed this event from Townbeat, so it is no longer listed. This page is kept for people who saved it.');
    expect(screen.queryByTestId('not-listed')).toBeNull();
    // The heart still takes it off My Events.
    expect(screen.getByRole('button', { name: 'Remove Harvest Supper from favorites' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('leads back to the Discover list the visitor came from, its filters kept', async () => {
    const e = buildDetail({ title: 'Blue Trio Live' });
    stubFetch((url) => (url.pathname === `/api/events/${e.id}` ? json(e) : undefined));
    rememberDiscover('/?category=Music&sortBy=date');
    renderApp(page, { path: `/events/${e.id}` });
    await screen.findByRole('heading', { name: 'Blue Trio Live' });
    expect(screen.getByRole('link', { name: 'Back to Discover' }).getAttribute('href')).toBe('/?category=Music&sortBy=date');
    // Only an in-app path: another site's address leads to Discover itself.
    rememberDiscover('//evil.example/phish');
    expect(lastDiscover()).toBe('/');
    sessionStorage.clear();
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
