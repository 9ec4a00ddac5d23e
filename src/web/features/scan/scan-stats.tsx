import { Award, CalendarDays, CheckCircle2, ScanText, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Progress } from '../../components/ui/progress.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { useScanChallenges, useScanHistory } from './scan.queries.ts';

function Tile({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
  return (
    <div className="rounded-lg border border-border bg-card p-3 shadow-sm sm:p-4">
      <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        {icon}
        {label}
      </dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

/** The four stat tiles of spec section 2: total scans, points earned, badges, this week. */
export function ScanStatTiles() {
  const { data, isError } = useScanHistory();
  const show = (n: number | undefined) => (n === undefined ? <span className="text-muted-foreground">–</span> : n.toLocaleString('en-US'));
  return (
    <section aria-label="Your scan stats">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={!data && !isError}>
        <Tile label="Total Scans" value={show(data?.scanCount)} icon={<ScanText className="h-4 w-4" aria-hidden />} />
        <Tile label="Points Earned" value={show(data?.totalPointsEarned)} icon={<Sparkles className="h-4 w-4 text-accent" aria-hidden />} />
        <Tile label="Badges" value={show(data?.badgesEarned.length)} icon={<Award className="h-4 w-4 text-accent" aria-hidden />} />
        <Tile label="This Week" value={show(data?.stats.thisWeek)} icon={<CalendarDays className="h-4 w-4" aria-hidden />} />
      </dl>
      {isError && (
        <p role="alert" className="mt-2 text-sm text-destructive">
          Your scan stats could not be loaded.
        </p>
      )}
      {data && data.badgesEarned.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Scanner badges">
          {data.badgesEarned.map((b) => (
            <li key={b.title} className="rounded-full bg-accent-soft px-3 py-1 text-xs font-semibold text-accent">
              {/* A number only for points a badge really paid (none do today): a threshold is not a reward. */}
              {b.points > 0 ? `${b.title} · +${b.points}` : b.title}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Active challenges with their progress bars and rewards; completed ones marked. */
export function ScanChallengesList() {
  const { data, isLoading, isError } = useScanChallenges();
  return (
    <section aria-labelledby="scan-challenges-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="scan-challenges-heading" className="text-lg font-semibold">
        Active Challenges
      </h2>
      {isLoading && <InlineLoading label="Loading challenges…" />}
      {isError && (
        <p role="alert" className="mt-2 text-sm text-destructive">
          Challenges could not be loaded.
        </p>
      )}
      {data && data.length === 0 && <p className="mt-2 text-sm text-muted-foreground">No active challenges right now.</p>}
      {data && data.length > 0 && (
        <ul className="mt-3 space-y-4">
          {data.map((c) => (
            <li key={c.id} data-testid="scan-challenge" data-completed={c.completed}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="flex items-center gap-1.5 font-semibold">
                    {c.completed && <CheckCircle2 className="h-4 w-4 shrink-0 text-success" aria-hidden />}
                    {c.title}
                    {c.completed && <span className="sr-only">(completed)</span>}
                  </p>
                  <p className="text-sm text-muted-foreground">{c.description}</p>
                </div>
                <span className="shrink-0 rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">+{c.reward.points} pts</span>
              </div>
              <div className="mt-2 flex items-center gap-3">
                <Progress value={Math.min(c.progress, c.target)} max={c.target} label={`${c.title} progress`} />
                <span className="shrink-0 text-xs tabular-nums text-muted-foreground">
                  {c.completed ? 'Completed' : `${Math.min(c.progress, c.target)}/${c.target}`}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
