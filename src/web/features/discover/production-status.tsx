import { Activity } from 'lucide-react';
import { Progress } from '../../components/ui/progress.tsx';
import { useEventStats, useHealth } from './discover.queries.ts';

/** Milliseconds of uptime as '3d 4h', '2h 14m', '5m' or '42s'. */
export function formatUptime(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m`;
  return `${s}s`;
}

const n = (v: number) => v.toLocaleString('en-US');

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md bg-muted px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-base font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * The production status widget: GET /api/health every 10 s (spec section 9). Its event figures are
 * the listed ones of GET /api/events/stats, as the list beside it counts them (a series once, no
 * past or removed events); health's storage counts every approved row.
 */
export function ProductionStatus() {
  const { data, isLoading, isError } = useHealth();
  const stats = useEventStats();
  const listed = (v: number | undefined) => (v === undefined ? (stats.isError ? '—' : '…') : n(v));
  const operational = data?.status === 'operational';
  return (
    <section aria-labelledby="production-status-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id="production-status-heading" className="flex items-center gap-2 text-base font-bold">
          <Activity className="h-4 w-4 text-primary" aria-hidden />
          Production Status
        </h2>
        {data && (
          <span
            className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ${operational ? 'bg-success-soft text-success' : 'bg-accent-soft text-accent'}`}
            data-testid="health-status"
          >
            <span className={`h-2 w-2 rounded-full ${operational ? 'bg-success' : 'bg-accent'}`} aria-hidden />
            {operational ? 'Operational' : data.status === 'degraded' ? 'Degraded' : data.status}
          </span>
        )}
      </div>
      {isLoading ? (
        <div className="grid grid-cols-2 gap-2" aria-hidden>
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded-md bg-muted" />
          ))}
        </div>
      ) : isError || !data ? (
        <p className="text-sm text-muted-foreground">Status unavailable right now.</p>
      ) : (
        <dl className="grid grid-cols-2 gap-2">
          <Stat label="Uptime" value={formatUptime(data.health.metrics.system.uptime)} />
          <Stat label="Total events" value={listed(stats.data?.totalEvents)} />
          <Stat label="Today's events" value={listed(stats.data?.todayEvents)} />
          <Stat label="Users" value={n(data.health.metrics.storage.totalUsers)} />
        </dl>
      )}
    </section>
  );
}

/** The coverage indicator: the share of neighbourhoods with an upcoming event this week. */
export function CoverageIndicator() {
  const { data, isLoading, isError } = useEventStats();
  return (
    <section aria-labelledby="coverage-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h2 id="coverage-heading" className="text-base font-bold">
          Coverage
        </h2>
        {isLoading ? (
          <span className="h-6 w-14 animate-pulse rounded bg-muted" aria-hidden data-testid="coverage-skeleton" />
        ) : data ? (
          <span className="text-xl font-bold text-success" data-testid="coverage-value">
            {data.coverage.toFixed(1)}%
          </span>
        ) : null}
      </div>
      {isLoading ? (
        <div className="h-2 animate-pulse rounded-full bg-muted" aria-hidden />
      ) : isError || !data ? (
        <p className="text-sm text-muted-foreground">Coverage unavailable right now.</p>
      ) : (
        <>
          <Progress value={data.coverage} max={100} label="Neighbourhood coverage" />
          <p className="mt-2 text-xs text-muted-foreground">
            of neighbourhoods have an event this week · {n(data.activeSources)} active {data.activeSources === 1 ? 'source' : 'sources'}
          </p>
        </>
      )}
    </section>
  );
}
