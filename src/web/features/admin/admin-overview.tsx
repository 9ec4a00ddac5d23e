import { Link } from 'wouter';
import { SECURITY_GREEN_AT, type AdminOverviewResponse, type AuditEntryResponse, type SystemStatus } from '../../../contract/admin.ts';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { formatCityTime } from '../../lib/city-time.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { useAuditLog, useOverview, useSecurityReport, useSystemStatus } from './admin-area.queries.ts';
import { useEventStatsQuery } from './admin.queries.ts';
import { useOpenAdminDashboard } from './open-admin-dashboard.ts';

/** A figure card of the Overview. */
function Card({ label, value, hint, tone, testId }: { label: string; value: string; hint?: string; tone?: 'good' | 'warn' | 'bad'; testId?: string }) {
  const toneClass = tone === 'good' ? 'text-success' : tone === 'warn' ? 'text-accent' : tone === 'bad' ? 'text-destructive' : '';
  return (
    <div className="rounded-lg border border-border bg-card p-4 shadow-sm" data-testid={testId}>
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className={`mt-1 text-2xl font-bold ${toneClass}`}>{value}</p>
      {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

/** The Total Events card's hint: what it counts, and what it leaves out (past events, those removed by their source). */
const listedHint = (approved: number) => `Listed now · ${approved.toLocaleString('en-US')} approved in all, past and removed ones included`;

/** 'Nov 28, 7:00 PM' on the city's clocks. */
const when = (iso: string, timeZone: string | undefined) => formatCityTime(iso, timeZone, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

const singular = (w: string) => (w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.endsWith('s') ? w.slice(0, -1) : w).replace(/-/g, ' ');

/** 'POST /api/admin/events/:id/approve' -> 'approve event', 'PATCH /api/admin/users/:id' -> 'changed user'. */
export function describeAction(action: string): string {
  const [method = '', url = ''] = action.split(' ');
  if (url === '/api/auth/login') return 'signed in';
  if (url === '/api/auth/logout') return 'signed out';
  if (url === '/api/admin/backup' || (method === 'GET' && url === '/api/admin/backups/:name')) return 'downloaded a backup';
  if (method === 'POST' && url === '/api/admin/backups') return 'took a backup';
  const segs = url.replace(/^\/api\/(admin\/)?/, '').split('/').filter(Boolean);
  const firstParam = segs.findIndex((p) => p.startsWith(':'));
  const resource = singular(firstParam > 0 ? segs[firstParam - 1]! : (segs.at(-1) ?? ''));
  const last = segs.at(-1) ?? '';
  if (method === 'POST') return firstParam >= 0 && !last.startsWith(':') ? `${last.replace(/-/g, ' ')} ${resource}` : `created ${resource}`;
  const verb: Record<string, string> = { PATCH: 'changed', PUT: 'replaced', DELETE: 'deleted' };
  return `${verb[method] ?? method.toLowerCase()} ${resource}`;
}

/** System status in a word and its measured figures. */
function statusSummary(s: SystemStatus): { value: string; hint: string; tone: 'good' | 'bad' } {
  const degraded = s.api.status === 'degraded';
  const db = s.database.responseTime === null ? 'database down' : `database ${s.database.responseTime} ms`;
  return { value: degraded ? 'Degraded' : 'Operational', hint: `${db} · ${s.api.endpoints} endpoints · ${s.websocket.connections} live connections`, tone: degraded ? 'bad' : 'good' };
}

const sources = (n: number) => `${n} ${n === 1 ? 'source' : 'sources'}`;

/**
 * The sources an admin should look at: those whose last run failed, those whose last reading of
 * the feed could not use some of its entries, and those whose last run did not meet events they
 * list (kept listed until a later run shows they are gone; the Sources page says why). Empty when none.
 */
export function sourcesAttention(s: SystemStatus['scraping']): string[] {
  const out: string[] = [];
  if (s.failing > 0) out.push(`${sources(s.failing)} of ${s.sources} failed ${s.failing === 1 ? 'its' : 'their'} last run`);
  if (s.leftOut > 0) out.push(`${sources(s.leftOut)} could not use some entries of ${s.leftOut === 1 ? 'its' : 'their'} feed`);
  if (s.held > 0) out.push(`${sources(s.held)} missed events in ${s.held === 1 ? 'its' : 'their'} last run, kept for now`);
  return out;
}

function ActivityRow({ e }: { e: AuditEntryResponse }) {
  const timeZone = useCityTimeZone();
  const tone = e.result === 'ok' ? 'bg-success-soft text-success' : e.result === 'refused' ? 'bg-accent-soft text-accent' : 'bg-destructive/10 text-destructive';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="min-w-0">
        <p className="font-medium">
          {e.actorEmail} <span className="font-normal text-muted-foreground">{describeAction(e.action)}</span>
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {e.action}
          {e.target ? ` · ${e.target}` : ''}
        </p>
      </div>
      <div className="flex items-center gap-2 text-xs">
        <span className={`rounded-full px-2 py-0.5 font-semibold ${tone}`}>{e.result}</span>
        <time dateTime={e.at} className="text-muted-foreground">
          {when(e.at, timeZone)}
        </time>
      </div>
    </li>
  );
}

/** What waits for an admin's decision, as one line: '232 events wait for review · 1 possible duplicate to decide'. */
export function awaitingDecision(o: Pick<AdminOverviewResponse, 'pendingEvents' | 'openDuplicates'>): string[] {
  const out: string[] = [];
  if (o.pendingEvents > 0) out.push(`${o.pendingEvents.toLocaleString('en-US')} ${o.pendingEvents === 1 ? 'event waits' : 'events wait'} for review`);
  if (o.openDuplicates > 0) out.push(`${o.openDuplicates.toLocaleString('en-US')} possible ${o.openDuplicates === 1 ? 'duplicate' : 'duplicates'} to decide`);
  return out;
}

/** Overview: system status, total events, active users (7 days), security score, recent admin activity. */
export function AdminOverview() {
  const status = useSystemStatus();
  const overview = useOverview();
  const security = useSecurityReport();
  const audit = useAuditLog();
  const s = status.data ? statusSummary(status.data) : null;
  const score = security.data?.securityScore;
  const attention = status.data ? sourcesAttention(status.data.scraping) : [];
  const awaiting = overview.data ? awaitingDecision(overview.data) : [];
  const openDashboard = useOpenAdminDashboard();
  // The figure the Admin Dashboard's tile shows: events listed now (upcoming or on, not removed).
  const stats = useEventStatsQuery();
  const timeZone = useCityTimeZone();
  return (
    <div>
      {(status.isError || overview.isError || stats.isError) && (
        <p role="alert" className="mb-4 text-destructive">
          Could not load system health.
        </p>
      )}
      {/* First, above the cards: on a phone they stack, and what needs a look would sit below them. */}
      {attention.length > 0 && (
        <p data-testid="sources-attention" className="mb-4 flex flex-wrap items-center gap-x-2 text-sm">
          <span className={status.data?.scraping.failing ? 'text-destructive' : 'text-accent'}>{attention.join(' · ')}.</span>
          <Link href="/admin/sources" className="font-medium text-primary underline underline-offset-2">
            Review sources
          </Link>
        </p>
      )}
      {awaiting.length > 0 && (
        <p data-testid="awaiting-decision" className="mb-4 flex flex-wrap items-center gap-x-2 text-sm">
          <span className="text-accent">{awaiting.join(' · ')}.</span>
          {openDashboard && (
            <button type="button" className="font-medium text-primary underline underline-offset-2" onClick={openDashboard}>
              Review them
            </button>
          )}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card testId="card-system-status" label="System Status" value={s?.value ?? '…'} hint={s?.hint} tone={s?.tone} />
        <Card
          testId="card-total-events"
          label="Total Events"
          value={stats.data ? stats.data.totalEvents.toLocaleString('en-US') : '…'}
          hint={overview.data ? listedHint(overview.data.totalEvents) : 'Listed now'}
        />
        <Card label="Active Users" value={overview.data ? overview.data.activeUsers7d.toLocaleString('en-US') : '…'} hint="Last 7 days" />
        <Card
          testId="card-security-score"
          label="Security Score"
          value={score === undefined ? '…' : `${score} / 100`}
          tone={score === undefined ? undefined : score >= SECURITY_GREEN_AT ? 'good' : 'warn'}
          hint="From run-time checks"
        />
      </div>
      {status.data && (
        <p className="mt-3 text-sm text-muted-foreground">
          Sources:{' '}
          {status.data.scraping.lastRun
            ? `last run ${when(status.data.scraping.lastRun, timeZone)} (${status.data.scraping.lastSource}, ${status.data.scraping.lastResult})`
            : 'no run yet'}
          {' · '}scheduler {status.data.scraping.status} · AI: {status.data.ai.model}
        </p>
      )}
      <section aria-labelledby="recent-activity-heading" className="mt-8 rounded-lg border border-border bg-card p-4 shadow-sm">
        <h2 id="recent-activity-heading" className="text-lg font-semibold">
          Recent Activity
        </h2>
        {audit.isPending ? (
          <InlineLoading label="Loading activity…" />
        ) : audit.isError ? (
          <p role="alert" className="py-4 text-destructive">
            Could not load the audit log.
          </p>
        ) : audit.data.entries.length === 0 ? (
          <p className="py-4 text-muted-foreground">No admin activity yet.</p>
        ) : (
          <ul className="divide-y divide-border">
            {audit.data.entries.map((e) => (
              <ActivityRow key={e.id} e={e} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
