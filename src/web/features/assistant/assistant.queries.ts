import { useMutation, useQuery } from '@tanstack/react-query';
import type { AssistantChatRequest, AssistantChatResponse } from '../../../contract/assistant.ts';
import type { HealthResponse } from '../../../contract/health.ts';

export const ASSISTANT_URL = '/api/admin/ai-chat';
export const HEALTH_KEY = ['/api/health'] as const;
/** Spec section 9: the AI console and its health panel poll every 5 s. */
export const CONSOLE_HEALTH_POLL_MS = 5_000;
/** Spec section 9: chat context is the last 5 messages. */
export const CHAT_CONTEXT_SIZE = 5;

/** A chat message (spec section 3). */
export interface ChatMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  content: string;
  timestamp: string;
  commandResult?: Record<string, unknown> | null;
  commandType?: string | null;
  metadata?: { action: string; confirmToken?: string; expiresAt?: string };
  error?: boolean;
  /** A proposal the admin confirmed or cancelled: its buttons are gone. */
  settled?: 'confirmed' | 'cancelled';
}

/** A non-success answer: the HTTP status, its status text and the server's own message when it sent one. */
export class AssistantHttpError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly serverMessage: string | undefined,
  ) {
    super(`HTTP ${status}: ${statusText || 'Error'}`);
  }
}

/** POST /api/admin/ai-chat. */
export async function postAssistant(body: AssistantChatRequest): Promise<AssistantChatResponse> {
  const res = await fetch(ASSISTANT_URL, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'include' });
  if (!res.ok) {
    let serverMessage: string | undefined;
    try {
      const parsed = (await res.json()) as { message?: unknown };
      if (typeof parsed.message === 'string') serverMessage = parsed.message;
    } catch {
      // Not our JSON error shape.
    }
    throw new AssistantHttpError(res.status, res.statusText, serverMessage);
  }
  return (await res.json()) as AssistantChatResponse;
}

/** Sends one chat request (a message, or a confirmation of a proposed command). */
export function useAssistantChat() {
  return useMutation({ mutationFn: postAssistant });
}

/** GET /api/health every 5 s, for the console's health panel. */
export function useConsoleHealth() {
  return useQuery<HealthResponse>({ queryKey: HEALTH_KEY, refetchInterval: CONSOLE_HEALTH_POLL_MS });
}

let seq = 0;
/** A new chat message with a unique id and the current time. */
export function newMessage(role: ChatMessage['role'], content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return { id: `m${Date.now()}-${seq}`, role, content, timestamp: new Date().toISOString(), ...extra };
}

/** The assistant's answer as a chat message. */
export function fromResponse(r: AssistantChatResponse): ChatMessage {
  return newMessage('assistant', r.response, { commandResult: r.commandResult, commandType: r.commandType, metadata: r.metadata });
}
