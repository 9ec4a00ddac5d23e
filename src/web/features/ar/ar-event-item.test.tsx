import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../events/test-helpers.tsx';
import { ArEventItem } from './ar-event-item.tsx';
import type { ShownEvent } from './ar-view.ts';

const ID = '00000000-0000-4000-8000-00000000a001';
const event = (over: Partial<ShownEvent> = {}): ShownEvent => ({
  id: ID,
  title: 'Karaoke Thursdays at The Lantern Cellar',
  // Thu, Nov 26 2026, 8:00 PM in Portland (PST, UTC-8).
  time: '2026-11-27T04:00:00.000Z',
  allDay: false,
  attendees: 7,
  category: 'Music',
  venue: 'The Lantern Cellar',
  lat: 45.5187,
  lng: -122.6801,
  distanceM: 120,
  bearing: 2,
  ...over,
});
const row = (e: ShownEvent) =>
  renderApp(
    <ul>
      <ArEventItem event={e} unit="mi" timeZone="America/Los_Angeles" locale="en-US" />
    </ul>,
    { path: '/ar-discovery' },
  );

describe('ArEventItem', () => {
  it('shows when the event is in the city zone, how far, which way and how many go', () => {
    row(event());
    const item = screen.getByTestId('ar-event');
    expect(item.textContent).toContain('Thu, Nov 26 · 8:00 PM');
    expect(item.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-27T04:00:00.000Z');
    expect(item.textContent).toContain('Music');
    expect(item.textContent).toContain('7');
  });

  it('shows an all-day event by its day', () => {
    row(event({ time: '2026-11-27T08:00:00.000Z', allDay: true }));
    expect(screen.getByTestId('ar-event').textContent).toContain('Fri, Nov 27 · All day');
  });

  it('links a real event to its page', () => {
    const { location } = row(event());
    const link = screen.getByRole('link', { name: 'Karaoke Thursdays at The Lantern Cellar' });
    expect(link.getAttribute('href')).toBe(`/events/${ID}`);
    fireEvent.click(link);
    expect(location.history?.at(-1)).toBe(`/events/${ID}`);
  });

  it('does not link a sample event', () => {
    row(event({ id: 'sample-art-walk', title: 'Art Walk', sample: true }));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByTestId('ar-event').textContent).toContain('Art Walk (sample)');
  });
});
