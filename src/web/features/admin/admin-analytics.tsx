import { useId, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsDay } from '../../../contract/admin.ts';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { useAnalytics } from './admin-area.queries.ts';

const RANGES = [7, 30, 90, 365] as const;
/** One palette for every admin chart (DESIGN.md): the theme's colours, then the category colours. */
const PALETTE = ['var(--primary)', 'var(--cat-business)', 'var(--cat-sports)', 'var(--cat-music)', 'var(--cat-arts)', 'var(--cat-tech)', 'var(--cat-wellness)', 'var(--accent)', 'var(--cat-other)'];

const axis = { stroke: 'var(--muted-foreground)', fontSize: 12 };
const tooltipStyle = { contentStyle: { background: 'var(--card)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--foreground)' } };
/** '2026-11-18' -> 'Nov 18' (the day is already the city's). */
const dayLabel = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function ChartCard({ title, total, children }: { title: string; total: string; children: ReactNode }) {
  const id = useId();
  return (
    <figure aria-labelledby={id} className="rounded-lg border border-border bg-card p-4 shadow-sm" data-testid="analytics-chart">
      <figcaption id={id} className="flex items-baseline justify-between gap-2">
        <span className="font-semibold">{title}</span>
        <span className="text-sm text-muted-foreground">{total}</span>
      </figcaption>
      <div className="mt-3 h-56">{children}</div>
    </figure>
  );
}

/** '1 sign-up', '3 sign-ups'. */
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const sum = (rows: AnalyticsDay[], f: (d: AnalyticsDay) => number) => rows.reduce((n, d) => n + f(d), 0);

/** Analytics: daily series over the chosen range, drawn as charts, with the numbers as a table too. */
export default function AdminAnalytics() {
  const [days, setDays] = useState<number>(30);
  const q = useAnalytics(days);
  const selectId = useId();
  if (q.isPending) return <InlineLoading label="Loading analytics…" />;
  if (q.isError)
    return (
      <p role="alert" className="text-destructive">
        Could not load analytics.
      </p>
    );
  const { series, sourceTypes, timeZone } = q.data;
  const rows = series.map((d) => ({ ...d, label: dayLabel(d.date), ...Object.fromEntries(sourceTypes.map((s) => [`src_${s}`, d.eventsBySource[s] ?? 0])) }));
  const n = (x: number) => x.toLocaleString('en-US');

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          Daily figures, {q.data.from} to {q.data.to} ({timeZone}).
        </p>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium">
            Range
          </label>
          <select id={selectId} value={days} onChange={(e) => setDays(Number(e.target.value))} className="min-h-11 rounded-lg border border-border bg-card px-2 text-sm">
            {RANGES.map((r) => (
              <option key={r} value={r}>
                Last {r} days
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Sign-ups and active users" total={count(sum(series, (d) => d.signups), 'sign-up', 'sign-ups')}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} minTickGap={16} />
              <YAxis allowDecimals={false} tick={axis} width={36} />
              <Tooltip {...tooltipStyle} />
              <Legend />
              <Line type="monotone" dataKey="signups" name="Sign-ups" stroke={PALETTE[0]} strokeWidth={2} dot={false} isAnimationActive={false} />
              <Line type="monotone" dataKey="activeUsers" name="Active users" stroke={PALETTE[1]} strokeWidth={2} dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard title="Events ingested by source" total={count(sum(series, (d) => d.eventsIngested), 'event', 'events')}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} minTickGap={16} />
              <YAxis allowDecimals={false} tick={axis} width={36} />
              <Tooltip {...tooltipStyle} />
              <Legend />
              {sourceTypes.map((s, i) => (
                <Bar key={s} dataKey={`src_${s}`} name={s} stackId="src" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard title="Review decisions" total={`${n(sum(series, (d) => d.approvals))} approved, ${n(sum(series, (d) => d.rejections))} rejected`}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} minTickGap={16} />
              <YAxis allowDecimals={false} tick={axis} width={36} />
              <Tooltip {...tooltipStyle} />
              <Legend />
              <Bar dataKey="approvals" name="Approvals" fill="var(--success)" isAnimationActive={false} />
              <Bar dataKey="rejections" name="Rejections" fill="var(--destructive)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard title="Favourites and scans" total={`${count(sum(series, (d) => d.favorites), 'favourite', 'favourites')}, ${count(sum(series, (d) => d.scans), 'scan', 'scans')}`}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} minTickGap={16} />
              <YAxis allowDecimals={false} tick={axis} width={36} />
              <Tooltip {...tooltipStyle} />
              <Legend />
              <Line type="monotone" dataKey="favorites" name="Favourites" stroke={PALETTE[4]} strokeWidth={2} dot={false} isAnimationActive={false} />
              <Line type="monotone" dataKey="scans" name="Scans" stroke={PALETTE[5]} strokeWidth={2} dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard title="Points paid" total={count(sum(series, (d) => d.pointsPaid), 'point', 'points')}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="label" tick={axis} minTickGap={16} />
              <YAxis allowDecimals={false} tick={axis} width={44} />
              <Tooltip {...tooltipStyle} />
              <Bar dataKey="pointsPaid" name="Points" fill="var(--accent)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
      </div>
      <details className="rounded-lg border border-border bg-card p-4">
        <summary className="cursor-pointer font-semibold">Show the numbers as a table</summary>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[720px] text-right text-sm tabular-nums">
            <caption className="sr-only">Daily figures</caption>
            <thead className="text-xs uppercase text-muted-foreground">
              <tr>
                {['Day', 'Sign-ups', 'Active users', 'Events ingested', 'Approvals', 'Rejections', 'Favourites', 'Scans', 'Points paid'].map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 first:text-left">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {series.map((d) => (
                <tr key={d.date}>
                  <th scope="row" className="px-2 py-1 text-left font-normal">
                    {d.date}
                  </th>
                  {[d.signups, d.activeUsers, d.eventsIngested, d.approvals, d.rejections, d.favorites, d.scans, d.pointsPaid].map((v, i) => (
                    <td key={i} className="px-2 py-1">
                      {n(v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
