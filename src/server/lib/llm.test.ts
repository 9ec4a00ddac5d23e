import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm } from '../test/llm-server.ts';
import { createLlmClient, LlmError } from './llm.ts';

let fake: Awaited<ReturnType<typeof startFakeLlm>>;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const messages = [
  { role: 'system' as const, content: 'Answer briefly.' },
  { role: 'user' as const, content: 'Hello' },
];

describe('createLlmClient', () => {
  it('is null when no base URL is configured', () => {
    expect(createLlmClient({ baseUrl: undefined, model: 'm' })).toBeNull();
    expect(createLlmClient({ baseUrl: '', model: 'm' })).toBeNull();
  });

  it('posts the model and messages to {baseUrl}/chat/completions with the key as a Bearer token', async () => {
    fake.set(() => ({ content: 'Hi there' }));
    const llm = createLlmClient({ baseUrl: fake.baseUrl, apiKey: 'sk-test-123', model: 'test-model', timeoutMs: 5000 });
    expect(await llm.chat(messages)).toBe('Hi there');
    const [req] = fake.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe('Bearer sk-test-123');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({ model: 'test-model', messages, stream: false });
  });

  it('asks for a JSON object in JSON mode, sends no Authorization without a key, and accepts a trailing slash', async () => {
    fake.set(() => ({ content: '{"ok":true}' }));
    const llm = createLlmClient({ baseUrl: `${fake.baseUrl}/`, model: 'local', timeoutMs: 5000 });
    expect(await llm.chat(messages, { json: true })).toBe('{"ok":true}');
    const [req] = fake.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('throws a clear error on a non-2xx answer, naming the status and the start of the body', async () => {
    fake.set(() => ({ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided' } }) }));
    const llm = createLlmClient({ baseUrl: fake.baseUrl, apiKey: 'wrong', model: 'm', timeoutMs: 5000 });
    const err = await llm.chat(messages).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as Error).message).toMatch(/HTTP 401: .*Incorrect API key provided/);
  });

  it('throws on an answer that is not JSON or has no message content', async () => {
    const llm = createLlmClient({ baseUrl: fake.baseUrl, model: 'm', timeoutMs: 5000 });
    fake.set(() => ({ status: 200, body: '<html>proxy error</html>' }));
    await expect(llm.chat(messages)).rejects.toThrow(/not JSON: <html>proxy error/);
    fake.set(() => ({ status: 200, body: JSON.stringify({ choices: [] }) }));
    await expect(llm.chat(messages)).rejects.toThrow(/no choices\[0\]\.message\.content/);
    fake.set(() => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null } }] }) }));
    await expect(llm.chat(messages)).rejects.toThrow(LlmError);
  });

  it('gives up after the timeout', async () => {
    fake.set(() => ({ delayMs: 2000, then: { content: 'too late' } }));
    const llm = createLlmClient({ baseUrl: fake.baseUrl, model: 'm', timeoutMs: 100 });
    const started = Date.now();
    await expect(llm.chat(messages)).rejects.toThrow(/did not answer within 100 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a network failure as an LlmError', async () => {
    // A port nothing listens on: the fake server's, once closed.
    const gone = await startFakeLlm();
    await gone.close();
    const llm = createLlmClient({ baseUrl: gone.baseUrl, model: 'm', timeoutMs: 5000 });
    await expect(llm.chat(messages)).rejects.toThrow(/request failed: .*ECONNREFUSED/);
  });
});
