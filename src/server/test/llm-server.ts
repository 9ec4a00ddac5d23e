import type { IncomingHttpHeaders } from 'node:http';
import { startFeedServer } from './feed-server.ts';

/** A chat completion request as the fake endpoint received it. */
export interface LlmRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: { type: string }; [key: string]: unknown };
}

/** How the fake endpoint answers one request. */
export type LlmReply =
  /** A 200 chat completion whose first choice holds this text. */
  | { content: string }
  /** Any status and raw body. */
  | { status: number; body: string }
  /** Waits this long before giving the reply (to test timeouts). */
  | { delayMs: number; then: LlmReply };

export type LlmScenario = (req: LlmRequest) => LlmReply;

/**
 * A local OpenAI-compatible endpoint (POST {baseUrl}/chat/completions) that records every request
 * and answers in the shape OpenAI's API does (id, object, choices[].message, usage), as Ollama,
 * vLLM and llama.cpp also answer. Set the scenario per test.
 */
export async function startFakeLlm(scenario: LlmScenario = () => ({ status: 500, body: 'no scenario set' })) {
  let current = scenario;
  const requests: LlmRequest[] = [];
  let seq = 0;
  const server = await startFeedServer({
    '/v1/chat/completions': (req, res, raw) => {
      let body: LlmRequest['body'];
      try {
        body = JSON.parse(raw) as LlmRequest['body'];
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid JSON body' } }));
        return;
      }
      const request: LlmRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      const send = (reply: LlmReply): void => {
        if ('delayMs' in reply) {
          const timer = setTimeout(() => send(reply.then), reply.delayMs);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        if (res.destroyed) return;
        if ('status' in reply) {
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
          return;
        }
        seq += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-test${seq}`,
            object: 'chat.completion',
            created: 1_780_000_000,
            model: body.model ?? 'unknown',
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, logprobs: null, finish_reason: 'stop' }],
            usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
          }),
        );
      };
      send(current(request));
    },
  });
  return {
    /** The base URL to configure (LLM_BASE_URL), ending in /v1. */
    baseUrl: server.url('/v1'),
    requests,
    set(next: LlmScenario) {
      current = next;
    },
    close: server.close,
  };
}

/** The events a classification request carried in its user message. */
export function eventsOf(req: LlmRequest): { id: number; title: string; description?: string; venue?: string; tags?: string[] }[] {
  const user = req.body.messages?.find((m) => m.role === 'user');
  if (!user) throw new Error('no user message');
  return (JSON.parse(user.content) as { events: { id: number; title: string }[] }).events;
}

/** A scenario answering every event of a classification request with what `answer` says. */
export const answerEach =
  (answer: (event: ReturnType<typeof eventsOf>[number]) => { category: string; confidence: number } | null): LlmScenario =>
  (req) => ({
    content: JSON.stringify({
      results: eventsOf(req).flatMap((e) => {
        const a = answer(e);
        return a ? [{ id: e.id, ...a }] : [];
      }),
    }),
  });
