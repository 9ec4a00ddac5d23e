import { Activity, AlertTriangle, Database, FileWarning, RefreshCw, Send, Trash2, Wrench } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { newMessage, useConsoleHealth } from './assistant.queries.ts';
import { MessageList } from './chat-parts.tsx';
import { useChatSession } from './use-chat-session.ts';

export const CONSOLE_WELCOME =
  'AI Admin Console ready. Use a quick action or ask about system health, the database, sources, error logs or the review queue. Changes (clearing caches, restarts, repairs) wait for your confirmation.';

/** The six quick actions (spec section 2): each sends the same request an admin could type. */
export const QUICK_ACTIONS = [
  { label: 'System Health Check', message: 'System health check', icon: Activity },
  { label: 'Database Status', message: 'Database status', icon: Database },
  { label: 'Clear Cache', message: 'Clear cache', icon: Trash2 },
  { label: 'Restart Services', message: 'Restart services', icon: RefreshCw },
  { label: 'Emergency Repair', message: 'Emergency repair', icon: Wrench },
  { label: 'View Error Logs', message: 'View error logs', icon: FileWarning },
] as const;

const uptime = (ms: number) => {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
};

/** The health panel: /api/health every 5 s. */
function HealthPanel({ health }: { health: ReturnType<typeof useConsoleHealth> }) {
  const data = health.data;
  const ok = data?.status === 'operational';
  const rows = data
    ? [
        ['Uptime', uptime(data.health.metrics.system.uptime)],
        ['Total events', String(data.health.metrics.storage.totalEvents)],
        ["Today's events", String(data.health.metrics.storage.todayEvents)],
        ['Users', String(data.health.metrics.storage.totalUsers)],
      ]
    : [];
  return (
    <section aria-labelledby="health-panel-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="health-panel-heading" className="text-lg font-semibold">
        System Health
      </h2>
      {health.isLoading && <p className="mt-2 text-sm text-muted-foreground">Loading…</p>}
      {health.isError && (
        <p role="alert" className="mt-2 flex items-center gap-2 text-sm text-destructive">
          <AlertTriangle className="h-4 w-4" aria-hidden /> Could not load system health.
        </p>
      )}
      {data && (
        <>
          <p className="mt-2 flex items-center gap-2 text-sm font-semibold" data-testid="health-status">
            <span aria-hidden className={`h-2.5 w-2.5 rounded-full ${ok ? 'bg-green-500' : 'bg-amber-500'}`} />
            {ok ? 'Operational' : 'Degraded'}
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt className="text-muted-foreground">{k}</dt>
                <dd className="font-semibold">{v}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}

/** /ai-chat: the AI admin console with its health panel and quick actions (spec sections 2 and 8). */
export default function AiConsolePage() {
  const health = useConsoleHealth();
  const [draft, setDraft] = useState('');
  const session = useChatSession({
    welcome: CONSOLE_WELCOME,
    context: () => ({ healthData: health.data ?? null }),
    onFailure: (err) => {
      // A non-OK answer reads "HTTP {status}: {status text}"; a network failure gives its own message.
      const message = err instanceof Error ? err.message : String(err);
      toast({ title: 'Chat Error', description: message, variant: 'destructive' });
      return newMessage('system', `Error: ${message}. Please check your connection and try again.`, { error: true });
    },
  });
  const submit = () => {
    if (session.send(draft)) setDraft('');
  };

  return (
    <section aria-labelledby="console-heading">
      <h1 id="console-heading" className="text-3xl font-bold">
        AI Admin Console
      </h1>
      <p className="mt-1 text-muted-foreground">System health at a glance, with the assistant one click away.</p>
      <div className="mt-6 grid gap-4 lg:grid-cols-[20rem_1fr]">
        <div className="flex flex-col gap-4">
          <HealthPanel health={health} />
          <section aria-labelledby="quick-actions-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
            <h2 id="quick-actions-heading" className="text-lg font-semibold">
              Quick Actions
            </h2>
            <div className="mt-3 grid grid-cols-2 gap-2 lg:grid-cols-1">
              {QUICK_ACTIONS.map(({ label, message, icon: Icon }) => (
                <Button key={label} variant="outline" className="justify-start" disabled={session.pending} onClick={() => session.send(message)}>
                  <Icon className="h-4 w-4 shrink-0" aria-hidden />
                  {label}
                </Button>
              ))}
            </div>
          </section>
        </div>
        <div className="flex h-[32rem] min-h-0 flex-col rounded-lg border border-border bg-card shadow-sm lg:h-[calc(100dvh-12rem)]">
          <MessageList label="Console conversation" messages={session.messages} pending={session.pending} onConfirm={session.confirm} onCancel={session.cancel} />
          <form
            className="flex items-center gap-2 border-t border-border p-3"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <label htmlFor="console-input" className="sr-only">
              Ask the assistant
            </label>
            <input
              id="console-input"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              disabled={session.pending}
              maxLength={2000}
              placeholder="Ask the assistant…"
              className="min-h-11 flex-1 rounded-lg border border-border bg-background px-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:opacity-60"
            />
            <Button type="submit" aria-label="Send message" disabled={session.pending || !draft.trim()}>
              <Send className="h-4 w-4" aria-hidden />
            </Button>
          </form>
        </div>
      </div>
    </section>
  );
}
