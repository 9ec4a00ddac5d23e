import { describe, expect, it } from 'vitest';
import { createAnswerCache } from './answer-cache.ts';

describe('createAnswerCache', () => {
  it('keeps answers within its byte bound, dropping the least recently used first', () => {
    const body = 'x'.repeat(800);
    // Each entry weighs its key, its body and 200 bytes of bookkeeping: about 1,000 bytes.
    const cache = createAnswerCache(3000);
    cache.set('a', { body, headers: {} });
    cache.set('b', { body, headers: {} });
    expect(cache.get('a')?.body).toBe(body); // a is now the most recently used
    cache.set('c', { body, headers: { 'x-total-count': '3' } });
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')?.headers).toEqual({ 'x-total-count': '3' });
    expect(cache.bytes).toBeLessThanOrEqual(3000);
    // Replacing an entry does not count it twice; an answer larger than the bound is not kept.
    cache.set('c', { body: 'y', headers: {} });
    expect(cache.get('c')?.body).toBe('y');
    cache.set('huge', { body: 'z'.repeat(5000), headers: {} });
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
