import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyServerMessage, EVENT_UPDATE_COALESCE_MS } from './realtime-client.ts';

afterEach(() => {
  vi.useRealTimers();
});

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
});
