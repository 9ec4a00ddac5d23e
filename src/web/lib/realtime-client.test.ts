import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WS_RECONNECT_DELAY_MS } from '../../contract/realtime.ts';
import { applyServerMessage, connectRealtime, EVENT_UPDATE_COALESCE_MS } from './realtime-client.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A stand-in socket the test opens and closes by hand. */
class FakeSocket {
  static OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send() {}
  close() {
    this.onclose?.();
  }
}

describe('applyServerMessage', () => {
  it('refetches the event lists once per burst of event updates, shortly after the first', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue(undefined);
    for (let i = 0; i < 1000; i++) applyServerMessage(client, { type: 'event_update', data: { id: `e${i}`, action: 'created' } });
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(EVENT_UPDATE_COALESCE_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    const { predicate } = invalidate.mock.calls[0]![0] as unknown as { predicate: (q: { queryKey: unknown[] }) => boolean };
    expect(predicate({ queryKey: ['/api/events', { limit: 24 }] })).toBe(true);
    expect(predicate({ queryKey: ['/api/gaming/progress'] })).toBe(false);
    // A later update starts a new burst.
    applyServerMessage(client, { type: 'event_update', data: { id: 'late', action: 'updated' } });
    vi.advanceTimersByTime(EVENT_UPDATE_COALESCE_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('puts new points on the signed-in user at once', () => {
    const client = new QueryClient();
    client.setQueryData(['/api/auth/user'], { id: 'u1', points: 5 });
    applyServerMessage(client, { type: 'gaming_update', data: { points: 20 } });
    expect(client.getQueryData<{ points: number }>(['/api/auth/user'])?.points).toBe(20);
  });

  it('keeps new points when a fetch of the user started before them answers later', async () => {
    const client = new QueryClient();
    client.setQueryData(['/api/auth/user'], { id: 'u1', points: 0 });
    // The server's total: 5 when the first fetch is asked, 10 once the second award is paid.
    let serverPoints = 5;
    const answers: Array<() => void> = [];
    const queryFn = () => {
      const points = serverPoints;
      return new Promise<{ id: string; points: number }>((resolve) => answers.push(() => resolve({ id: 'u1', points })));
    };
    const observer = new QueryObserver(client, { queryKey: ['/api/auth/user'], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    void client.invalidateQueries({ queryKey: ['/api/auth/user'] }); // e.g. after a favourite: asks while the total is 5
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
    serverPoints = 10;
    applyServerMessage(client, { type: 'gaming_update', data: { points: 10 } });
    for (const answer of answers) answer(); // the stale answer (5) arrives after the message
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(client.getQueryData<{ points: number }>(['/api/auth/user'])?.points).toBe(10);
    unsubscribe();
  });
});

describe('connectRealtime', () => {
  it('refetches what messages keep fresh whenever the socket opens, and the event lists after a gap', () => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue(undefined);
    const keys = () => invalidate.mock.calls.map(([f]) => (f as { queryKey?: unknown[] }).queryKey?.[0] ?? 'events');
    const conn = connectRealtime({ client, url: 'ws://test/ws' });
    expect(invalidate).not.toHaveBeenCalled();

    // Points and notifications sent before the first open are caught up on open.
    FakeSocket.made[0]!.onopen?.();
    expect(keys()).toEqual(expect.arrayContaining(['/api/auth/user', '/api/notifications', '/api/gaming/progress']));
    vi.advanceTimersByTime(EVENT_UPDATE_COALESCE_MS);
    expect(keys()).not.toContain('events');

    // After a reconnect gap the event lists are refetched as well.
    invalidate.mockClear();
    FakeSocket.made[0]!.onclose?.();
    vi.advanceTimersByTime(WS_RECONNECT_DELAY_MS);
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.onopen?.();
    vi.advanceTimersByTime(EVENT_UPDATE_COALESCE_MS);
    expect(keys()).toEqual(expect.arrayContaining(['/api/auth/user', '/api/notifications', 'events']));
    conn.close();
  });
});
