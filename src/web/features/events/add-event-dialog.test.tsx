import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddEventDialog } from './add-event-dialog.tsx';
import { buildUser, json, renderApp, stubFetch } from './test-helpers.tsx';

afterEach(() => vi.unstubAllGlobals());

const EVENT_ID = '00000000-0000-4000-8000-0000000000e1';

function send(url: string) {
  fireEvent.change(screen.getByLabelText('Link to the event'), { target: { value: url } });
  fireEvent.click(screen.getByRole('button', { name: 'Send for review' }));
}

describe('AddEventDialog', () => {
  it("sends a page's link for review and says what became of it, with the way to its page", async () => {
    const bodies: unknown[] = [];
    stubFetch((url, init) => {
      if (url.pathname !== '/api/events/import-url') return undefined;
      bodies.push(JSON.parse(String(init?.body)));
      return json({ eventId: EVENT_ID, status: 'pending', message: 'Thanks! Your event was sent for review' }, { status: 201 });
    });
    renderApp(<AddEventDialog open onOpenChange={() => {}} />, { user: buildUser() });
    expect((screen.getByRole('button', { name: 'Send for review' }) as HTMLButtonElement).disabled).toBe(true);
    send('  https://venue.example/events/winter-fair  ');
    const answer = await screen.findByTestId('add-event-answer');
    expect(answer.textContent).toContain('Thanks! Your event was sent for review');
    expect(screen.getByRole('link', { name: 'View event page' }).getAttribute('href')).toBe(`/events/${EVENT_ID}`);
    expect(bodies).toEqual([{ url: 'https://venue.example/events/winter-fair' }]);
  });

  it('gives no way to a page the member may not open (another member’s event in review)', async () => {
    stubFetch((url) => (url.pathname === '/api/events/import-url' ? json({ eventId: null, status: 'existing', message: 'Townbeat already has this event: it is waiting for review' }) : undefined));
    renderApp(<AddEventDialog open onOpenChange={() => {}} />, { user: buildUser() });
    send('https://venue.example/events/winter-fair');
    expect((await screen.findByTestId('add-event-answer')).textContent).toBe('Townbeat already has this event: it is waiting for review');
    expect(screen.queryByRole('link', { name: 'View event page' })).toBeNull();
  });

  it("shows the server's reason when the page holds no event", async () => {
    stubFetch((url) => (url.pathname === '/api/events/import-url' ? json({ code: 'invalid', message: 'url: no upcoming event was found at that address' }, { status: 400 }) : undefined));
    renderApp(<AddEventDialog open onOpenChange={() => {}} />, { user: buildUser() });
    send('https://venue.example/about');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('url: no upcoming event was found at that address'));
    expect(screen.queryByTestId('add-event-answer')).toBeNull();
  });
});
