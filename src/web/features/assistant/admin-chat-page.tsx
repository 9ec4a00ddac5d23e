import { Send } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { AssistantHttpError, CHAT_CONTEXT_SIZE, newMessage } from './assistant.queries.ts';
import { MessageList } from './chat-parts.tsx';
import { useChatSession } from './use-chat-session.ts';

export const ADMIN_CHAT_WELCOME =
  "Hello! I'm your AI admin assistant. I can check system health, the database, error logs and sources, count events waiting for review or by category, and look up a user's points. After you confirm, I can clear caches, restart services, run an emergency repair, run a source now, or approve and reject events. How can I help?";

/** What went wrong, in the server's words when it gave some. */
const messageOf = (err: unknown) => (err instanceof AssistantHttpError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : String(err));

/** /admin/chat: the admin's chat with the assistant (spec sections 2, 4, 5 and 8). */
export default function AdminChatPage() {
  const { user } = useAuth();
  const [draft, setDraft] = useState('');
  const session = useChatSession({
    welcome: ADMIN_CHAT_WELCOME,
    context: (history) => ({ messages: history.slice(-CHAT_CONTEXT_SIZE).map((m) => ({ role: m.role, content: m.content })), userId: user?.id }),
    onFailure: (err) => {
      const message = messageOf(err);
      toast({ title: 'Error', description: message, variant: 'destructive' });
      return newMessage('assistant', `I encountered an error: ${message}. Please try again or check your API key settings.`, { error: true });
    },
  });

  const submit = () => {
    if (session.send(draft)) setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift-Enter keeps the newline.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <section aria-labelledby="admin-chat-heading" className="mx-auto flex max-w-3xl flex-col">
      <h1 id="admin-chat-heading" className="text-3xl font-bold">
        Admin AI Chat
      </h1>
      <p className="mt-1 text-muted-foreground">Ask in plain words. Changes run only after you confirm them.</p>
      <div className="mt-4 flex h-[calc(100dvh-17rem)] min-h-[22rem] flex-col rounded-lg border border-border bg-card shadow-sm">
        <MessageList label="Conversation" messages={session.messages} pending={session.pending} onConfirm={session.confirm} onCancel={session.cancel} />
        <form
          className="flex items-end gap-2 border-t border-border p-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor="admin-chat-input" className="sr-only">
            Message
          </label>
          <textarea
            id="admin-chat-input"
            rows={2}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={session.pending}
            maxLength={2000}
            placeholder="Ask about system health, sources, the review queue… (Shift-Enter for a new line)"
            className="min-h-11 flex-1 resize-none rounded-lg border border-border bg-background px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:opacity-60"
          />
          <Button type="submit" aria-label="Send message" disabled={session.pending || !draft.trim()}>
            <Send className="h-4 w-4" aria-hidden />
          </Button>
        </form>
      </div>
    </section>
  );
}
