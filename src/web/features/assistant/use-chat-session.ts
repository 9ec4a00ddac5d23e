import { useCallback, useEffect, useRef, useState } from 'react';
import type { AssistantChatRequest } from '../../../contract/assistant.ts';
import { fromResponse, newMessage, useAssistantChat, type ChatMessage } from './assistant.queries.ts';

export interface ChatSessionOptions {
  welcome: string;
  /** What the request carries as context, from the transcript before the new message. */
  context: (history: ChatMessage[]) => AssistantChatRequest['context'];
  /** The message (and any toast) a failed request leaves. */
  onFailure: (err: unknown) => ChatMessage;
}

/** A chat transcript with one request at a time (spec sections 4 and 5): sends, confirmations and cancels. */
export function useChatSession(o: ChatSessionOptions) {
  const [messages, setMessages] = useState<ChatMessage[]>(() => [newMessage('assistant', o.welcome)]);
  const chat = useAssistantChat();
  const pending = chat.isPending;
  // A second Enter before React re-renders must not send twice.
  const inFlight = useRef(false);
  // The latest options (context reads the latest health data), kept current after each render.
  const opts = useRef(o);
  useEffect(() => {
    opts.current = o;
  });

  const request = useCallback(
    async (shown: ChatMessage, body: AssistantChatRequest, after?: (ok: boolean) => void) => {
      inFlight.current = true;
      setMessages((ms) => [...ms, shown]);
      try {
        const r = await chat.mutateAsync(body);
        setMessages((ms) => [...ms, fromResponse(r)]);
        after?.(true);
      } catch (err) {
        // Outside the state updater: the failure handler also raises a toast.
        const failed = opts.current.onFailure(err);
        setMessages((ms) => [...ms, failed]);
        after?.(false);
      } finally {
        inFlight.current = false;
      }
    },
    [chat],
  );

  /** Sends the text unless it is empty, whitespace only, or a request is pending. Returns whether it was sent. */
  const send = useCallback(
    (text: string): boolean => {
      const message = text.trim();
      if (!message || inFlight.current) return false;
      void request(newMessage('user', message), { message, context: opts.current.context(messages) });
      return true;
    },
    [messages, request],
  );

  const settle = (id: string, settled: ChatMessage['settled']) => setMessages((ms) => ms.map((m) => (m.id === id ? { ...m, settled } : m)));

  /** Runs a proposed change with its confirmation token. */
  const confirm = useCallback(
    (m: ChatMessage) => {
      const token = m.metadata?.confirmToken;
      if (!token || inFlight.current) return;
      settle(m.id, 'confirmed');
      void request(newMessage('user', 'Confirm'), { message: 'Confirm', confirmToken: token });
    },
    [request],
  );

  /** Drops a proposed change; its token simply expires unused. */
  const cancel = useCallback((m: ChatMessage) => {
    if (inFlight.current) return;
    settle(m.id, 'cancelled');
    setMessages((ms) => [...ms, newMessage('assistant', 'Cancelled. Nothing was changed.')]);
  }, []);

  return { messages, pending, send, confirm, cancel };
}
