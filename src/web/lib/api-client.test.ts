import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';

const bad = (body: object) => new ApiError(400, `400: ${JSON.stringify(body)}`, JSON.stringify(body));

describe('ApiError.serverMessage', () => {
  it("tells a 400's field issues as a person reads them, naming the field where the message does not", () => {
    expect(bad({ code: 'invalid', message: 'body.price: price must be at most 10000', issues: [{ path: 'body.price', message: 'price must be at most 10000' }] }).serverMessage).toBe('price must be at most 10000');
    expect(
      bad({ code: 'invalid', message: 'x', issues: [{ path: 'body.stock', message: 'Invalid input: expected number, received string' }, { path: 'body.name', message: 'name is required' }] }).serverMessage,
    ).toBe('stock: Invalid input: expected number, received string; name is required');
    expect(bad({ code: 'invalid', message: 'body: is required: send a JSON object', issues: [{ path: 'body', message: 'is required: send a JSON object' }] }).serverMessage).toBe('is required: send a JSON object');
  });

  it("is the server's message otherwise, and nothing for a body that is not ours", () => {
    expect(bad({ code: 'conflict', message: 'Only 1 left of Kimchi Quart' }).serverMessage).toBe('Only 1 left of Kimchi Quart');
    expect(new ApiError(502, '502: Bad Gateway', '<html>').serverMessage).toBeUndefined();
  });
});
