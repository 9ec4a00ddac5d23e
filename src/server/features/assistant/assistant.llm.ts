// Tool calling against the configured OpenAI-compatible endpoint (LLM_BASE_URL): the shared client
// in lib/llm.ts answers text only, the assistant needs `tools` and `tool_calls`.

import { z } from 'zod';
import { DEFAULT_LLM_TIMEOUT_MS, LlmError } from '../../lib/llm.ts';

export interface ToolMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(z.object({ id: z.string().default('call'), type: z.string().optional(), function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }) }))
            .optional(),
        }),
      }),
    )
    .min(1),
});

export interface ToolModel {
  readonly model: string;
  /** One completion; `tools` omitted means the model may only answer in text. */
  complete(messages: readonly ToolMessage[], tools?: readonly ToolDefinition[]): Promise<{ content: string | null; toolCalls: ToolCall[] }>;
}

/** A tool-calling client for the configured endpoint, or null when none is configured. */
export function createToolModel(o: { baseUrl?: string | null; apiKey?: string | null; model: string; fetch?: typeof globalThis.fetch; timeoutMs?: number }): ToolModel | null {
  if (!o.baseUrl) return null;
  const url = `${o.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = o.fetch ?? globalThis.fetch;
  const timeoutMs = o.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  return {
    model: o.model,
    async complete(messages, tools) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
      const body = { model: o.model, messages, stream: false, temperature: 0, ...(tools?.length ? { tools, tool_choice: 'auto' } : {}) };
      let res: Response;
      let text: string;
      try {
        res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
        text = await res.text();
      } catch (err) {
        throw new LlmError(`The language model request failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      if (!res.ok) throw new LlmError(`The language model answered HTTP ${res.status}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new LlmError("The language model's answer is not JSON");
      }
      const c = Completion.safeParse(parsed);
      if (!c.success) throw new LlmError("The language model's answer has no choices[0].message");
      const m = c.data.choices[0]!.message;
      const toolCalls = (m.tool_calls ?? []).map((t) => ({
        id: t.id,
        type: 'function' as const,
        function: { name: t.function.name, arguments: typeof t.function.arguments === 'string' ? t.function.arguments : JSON.stringify(t.function.arguments) },
      }));
      return { content: m.content ?? null, toolCalls };
    },
  };
}
