import { Bot } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { useAiEngines } from './admin-area.queries.ts';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

/** AI Systems: which engine serves each AI feature, its recent latency, the classifier's accuracy; a link to /ai-chat. */
export function AdminAiSystems() {
  const ai = useAiEngines();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted-foreground">
          {ai.data?.llm ? `Language model configured: ${ai.data.llm.model}.` : 'No language model configured: every feature runs on its built-in engine, offline.'}
        </p>
        <Link href="/ai-chat" className={buttonClass('primary')}>
          <Bot className="h-4 w-4" aria-hidden />
          Open AI Console
        </Link>
      </div>
      {ai.isPending ? (
        <InlineLoading label="Loading AI status…" />
      ) : ai.isError ? (
        <p role="alert" className="text-destructive">
          Could not load the AI status.
        </p>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="rounded-lg border border-border bg-card p-4 shadow-sm">
              <p className="text-sm text-muted-foreground">Classifier accuracy</p>
              <p className="mt-1 text-2xl font-bold" data-testid="classifier-accuracy">
                {pct(ai.data.accuracy)}
              </p>
              <p className="mt-1 text-xs text-muted-foreground">Measured on {ai.data.evaluatedOn}</p>
            </div>
            <div className="rounded-lg border border-border bg-card p-4 shadow-sm">
              <p className="text-sm text-muted-foreground">Macro F1</p>
              <p className="mt-1 text-2xl font-bold">{pct(ai.data.macroF1)}</p>
              <p className="mt-1 text-xs text-muted-foreground">{ai.data.model}</p>
            </div>
            <div className="rounded-lg border border-border bg-card p-4 shadow-sm">
              <p className="text-sm text-muted-foreground">AI calls on this server</p>
              <p className="mt-1 text-2xl font-bold">{ai.data.features.reduce((n, f) => n + f.calls, 0).toLocaleString('en-US')}</p>
              <p className="mt-1 text-xs text-muted-foreground">Since the last start</p>
            </div>
          </div>
          <div className="overflow-x-auto rounded-lg border border-border bg-card">
            <table className="w-full min-w-[640px] text-left text-sm">
              <caption className="sr-only">Engine of each AI feature</caption>
              <thead className="bg-muted text-xs uppercase text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2">Feature</th>
                  <th scope="col" className="px-3 py-2">Engine</th>
                  <th scope="col" className="px-3 py-2">Model</th>
                  <th scope="col" className="px-3 py-2 text-right">Recent latency</th>
                  <th scope="col" className="px-3 py-2 text-right">Calls</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {ai.data.features.map((f) => (
                  <tr key={f.feature} data-testid="ai-feature-row">
                    <th scope="row" className="px-3 py-2 font-medium">
                      {f.label}
                    </th>
                    <td className="px-3 py-2">
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${f.engine === 'model' ? 'bg-accent-soft text-accent' : 'bg-muted text-foreground'}`}>
                        {f.engine === 'model' ? 'Language model' : 'Built-in'}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-muted-foreground">{f.model}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{f.latencyMs === null ? 'No measured calls' : `${f.latencyMs} ms`}</td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {f.calls}
                      {f.failures > 0 && <span className="text-destructive"> ({f.failures} failed)</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
