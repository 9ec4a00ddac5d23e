// A minimal client for OpenAI-compatible chat completion endpoints (OpenAI, Ollama, vLLM,
// llama.cpp, LM Studio, ...), shared by the AI features that may ask a language model
// (decisions.md section 6). The base URL is the admin's own configuration, so unlike feed
// URLs it is not checked against private addresses: a model on localhost is a normal set-up.

import { z } from 'zod';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** Ask for a JSON object (`response_format: json_object`); the caller still validates it. */
  json?: boolean;
  /** Cancels the request early, besides the client's own timeout. */
  signal?: AbortSignal;
}

export interface LlmClient {
  /** The model name sent with every request. */
  readonly model: string;
  /** Sends one chat completion request and returns the first choice's text. */
  chat(messages: readonly ChatMessage[], options?: ChatOptions): Promise<string>;
}

export interface LlmClientOptions {
  /** The endpoint up to `/chat/completions`, e.g. http://localhost:11434/v1; unset means no model. */
  baseUrl: string | undefined | null;
  apiKey?: string | null;
  model: string;
  fetch?: typeof globalThis.fetch;
  /** Time for the whole request, answer body included. */
  timeoutMs?: number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

/** A failed model request: HTTP error, timeout, network error or an answer without text. */
export class LlmError extends Error {
  override name = 'LlmError';
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** A chat client for the configured endpoint, or null when none is configured. */
export function createLlmClient(options: LlmClientOptions & { baseUrl: string }): LlmClient;
export function createLlmClient(options: LlmClientOptions): LlmClient | null;
export function createLlmClient(options: LlmClientOptions): LlmClient | null {
  if (!options.baseUrl) return null;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const { model, apiKey } = options;

  return {
    model,
    async chat(messages, { json = false, signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      const body = { model, messages, stream: false, ...(json ? { response_format: { type: 'json_object' } } : {}) };
      let text: string;
      let status: number;
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        });
        status = res.status;
        text = await res.text();
      } catch (err) {
        if (timeout.aborted) throw new LlmError(`The language model did not answer within ${timeoutMs} ms`, { cause: err });
        const reason = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
        throw new LlmError(`The language model request failed: ${reason}`, { cause: err });
      }
      if (status < 200 || status > 299) throw new LlmError(`The language model answered HTTP ${status}: ${snippet(text)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new LlmError(`The language model's answer is not JSON: ${snippet(text)}`);
      }
      const completion = Completion.safeParse(parsed);
      if (!completion.success) throw new LlmError(`The language model's answer has no choices[0].message.content: ${snippet(text)}`);
      return completion.data.choices[0]!.message.content;
    },
  };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty)';
}
