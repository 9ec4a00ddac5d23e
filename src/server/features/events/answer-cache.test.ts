import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { createAnswerCache, encodedBody, sharedEncoding } from './answer-cache.ts';

describe('createAnswerCache', () => {
  it('keeps answers within its byte bound, dropping the least recently used first', () => {
    const body = 'x'.repeat(800);
    // Each entry weighs its key, its body and a fifth more (its compressed form), and 200 bytes of
    // bookkeeping: about 1,160 bytes.
    const cache = createAnswerCache(3000);
    cache.set('a', { body, headers: {}, at: 0 });
    cache.set('b', { body, headers: {}, at: 0 });
    expect(cache.get('a', 1)?.body).toBe(body); // a is now the most recently used
    cache.set('c', { body, headers: { 'x-total-count': '3' }, at: 0 });
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.get('c', 1)?.headers).toEqual({ 'x-total-count': '3' });
    expect(cache.bytes).toBeLessThanOrEqual(3000);
    // Replacing an entry does not count it twice; an answer larger than the bound is not kept.
    cache.set('c', { body: 'y', headers: {}, at: 0 });
    expect(cache.get('c', 1)?.body).toBe('y');
    cache.set('huge', { body: 'z'.repeat(5000), headers: {}, at: 0 });
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('answers for 15 s from the making of each answer, not of a clock bucket', () => {
    const cache = createAnswerCache(1_000_000, 15_000);
    cache.set('early', { body: 'e', headers: {}, at: 1_000 });
    cache.set('late', { body: 'l', headers: {}, at: 14_000 });
    expect(cache.get('early', 15_999)?.body).toBe('e');
    expect(cache.get('early', 16_000)).toBeUndefined();
    expect(cache.get('late', 28_999)?.body).toBe('l');
    expect(cache.get('late', 29_000)).toBeUndefined();
    // A clock set back (a test's manual clock) never answers from the future.
    cache.set('future', { body: 'f', headers: {}, at: 50_000 });
    expect(cache.get('future', 40_000)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('compresses a kept answer once per encoding and keeps the result with it', () => {
    const answer = { body: JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ title: `Night market ${i}` }))), headers: {}, at: 0 };
    const gz = encodedBody(answer, 'gzip')!;
    expect(gunzipSync(gz).toString()).toBe(answer.body);
    expect(encodedBody(answer, 'gzip')).toBe(gz);
    const br = encodedBody(answer, 'br')!;
    expect(br).not.toBe(gz);
    expect(encodedBody(answer, 'br')).toBe(br);
    // Under the compress plugin's threshold the text is sent as it is.
    expect(encodedBody({ body: '{"n":1}', headers: {}, at: 0 }, 'gzip')).toBeNull();
  });

  it('picks the encoding the compress plugin would: brotli first, then gzip, by the client\'s weights', () => {
    expect(sharedEncoding({ 'accept-encoding': 'gzip, deflate, br' })).toBe('br');
    expect(sharedEncoding({ 'accept-encoding': 'gzip' })).toBe('gzip');
    expect(sharedEncoding({ 'accept-encoding': 'br;q=0, gzip' })).toBe('gzip');
    expect(sharedEncoding({ 'accept-encoding': 'x-gzip' })).toBe('gzip');
    expect(sharedEncoding({ 'accept-encoding': 'deflate' })).toBeNull();
    expect(sharedEncoding({ 'accept-encoding': 'identity' })).toBeNull();
    expect(sharedEncoding({})).toBeNull();
    expect(sharedEncoding({ 'accept-encoding': 'gzip', 'x-no-compression': '1' })).toBeNull();
  });
});
