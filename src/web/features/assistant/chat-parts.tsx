import { Bot, Check, ShieldAlert, User, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { formatCityTime } from '../../lib/city-time.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import type { ChatMessage } from './assistant.queries.ts';

/** '7:05 PM' on the city's clocks, as every other time in the app. */
const time = (iso: string, timeZone: string | undefined) => formatCityTime(iso, timeZone, { hour: 'numeric', minute: '2-digit' });

/** One message bubble; a proposed change shows what would happen with Confirm and Cancel. */
function Bubble({ m, busy, onConfirm, onCancel }: { m: ChatMessage; busy: boolean; onConfirm?: (m: ChatMessage) => void; onCancel?: (m: ChatMessage) => void }) {
  const mine = m.role === 'user';
  const system = m.role === 'system';
  const proposal = m.metadata?.action === 'proposed' && m.metadata.confirmToken;
  const Icon = mine ? User : system ? ShieldAlert : Bot;
  const timeZone = useCityTimeZone();
  return (
    <li className={`flex gap-2 ${mine ? 'flex-row-reverse' : ''}`} data-role={m.role}>
      <span aria-hidden className={`mt-1 flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${mine ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground'}`}>
        <Icon className="h-4 w-4" />
      </span>
      <div
        className={`max-w-[85%] rounded-lg px-3 py-2 text-sm ${
          mine ? 'bg-primary text-primary-foreground' : m.error ? 'border border-destructive/40 bg-destructive/10 text-foreground' : system ? 'bg-muted text-foreground' : 'border border-border bg-card text-card-foreground'
        }`}
      >
        <p className="sr-only">{mine ? 'You' : system ? 'System' : 'Assistant'} said:</p>
        <p className="whitespace-pre-wrap break-words">{m.content}</p>
        {proposal && !m.settled && (
          <div className="mt-3 flex flex-wrap gap-2" role="group" aria-label="Confirm this change">
            <Button onClick={() => onConfirm?.(m)} disabled={busy}>
              <Check className="h-4 w-4" aria-hidden /> Confirm
            </Button>
            <Button variant="outline" onClick={() => onCancel?.(m)} disabled={busy}>
              <X className="h-4 w-4" aria-hidden /> Cancel
            </Button>
          </div>
        )}
        {m.settled && <p className="mt-2 text-xs font-semibold text-muted-foreground">{m.settled === 'confirmed' ? 'Confirmed' : 'Cancelled'}</p>}
        <p className={`mt-1 text-[11px] ${mine ? 'text-primary-foreground/80' : 'text-muted-foreground'}`}>{time(m.timestamp, timeZone)}</p>
      </div>
    </li>
  );
}

/** The transcript with its pending indicator; it keeps the newest message in view. */
export function MessageList({ messages, pending, onConfirm, onCancel, label }: { messages: ChatMessage[]; pending: boolean; onConfirm?: (m: ChatMessage) => void; onCancel?: (m: ChatMessage) => void; label: string }) {
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending]);
  return (
    <ol aria-label={label} aria-live="polite" className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-3">
      {messages.map((m) => (
        <Bubble key={m.id} m={m} busy={pending} onConfirm={onConfirm} onCancel={onCancel} />
      ))}
      {pending && (
        <li role="status" className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="chat-pending">
          <span className="flex gap-1" aria-hidden>
            <span className="h-2 w-2 animate-bounce rounded-full bg-muted-foreground motion-reduce:animate-none" />
            <span className="h-2 w-2 animate-bounce rounded-full bg-muted-foreground [animation-delay:150ms] motion-reduce:animate-none" />
            <span className="h-2 w-2 animate-bounce rounded-full bg-muted-foreground [animation-delay:300ms] motion-reduce:animate-none" />
          </span>
          Thinking…
        </li>
      )}
      <li ref={end} aria-hidden className="h-px" />
    </ol>
  );
}
