import { Award, CalendarCheck, Store, Trophy } from 'lucide-react';
import { levelFor, nextBadgeTarget } from '../../../contract/gaming.ts';
import { Progress } from '../../components/ui/progress.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { formatPoints } from './gaming-format.ts';
import { useProgress } from './gaming.queries.ts';

/** Spec section 9: a player without progress yet is level 1. */
export const DEFAULT_LEVEL = 1;

/**
 * The gaming progress widget of the Discover home's left column (spec section 2): level, points,
 * badges, the next tier badge with a bar toward it (the widget's reading of spec section 4),
 * events attended and merchants visited. Polled every 30 s and refreshed by live updates.
 */
export function GamingProgressWidget() {
  const { user } = useAuth();
  const { data, isError } = useProgress();
  if (!user) return null;
  // The chip's live total is never older than the last poll.
  const points = data ? Math.max(data.points, user.points) : user.points;
  const level = Math.max(data?.level ?? DEFAULT_LEVEL, levelFor(points));
  const next = nextBadgeTarget(points);
  const badges = data?.badges ?? [];

  return (
    <section aria-labelledby="gaming-progress-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm" data-testid="gaming-progress">
      <div className="flex items-center justify-between gap-2">
        <h2 id="gaming-progress-heading" className="flex items-center gap-2 text-base font-bold">
          <Trophy className="h-5 w-5 text-accent" aria-hidden />
          Your Progress
        </h2>
        <span className="rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground" data-testid="gaming-level">
          Level {level}
        </span>
      </div>

      <p className="mt-3 text-2xl font-bold text-accent" data-testid="gaming-points">
        {formatPoints(points)} <span className="text-sm font-semibold">{points === 1 ? 'point' : 'points'}</span>
      </p>

      <div className="mt-3">
        {next ? (
          <>
            <p className="mb-1.5 flex justify-between gap-2 text-sm" data-testid="gaming-next-badge">
              <span>
                Next badge: <span className="font-semibold">{next.name}</span>
              </span>
              <span className="text-muted-foreground">
                {formatPoints(points)} / {formatPoints(next.points)}
              </span>
            </p>
            <Progress value={points} max={next.points} label={`Progress to ${next.name}`} />
            <p className="mt-1 text-xs text-muted-foreground">{formatPoints(next.points - points)} points to go</p>
          </>
        ) : (
          <p className="text-sm font-semibold text-success" data-testid="gaming-next-badge">
            Every tier badge earned: you are a Local Legend!
          </p>
        )}
      </div>

      <div className="mt-4">
        <h3 className="mb-1.5 flex items-center gap-1.5 text-sm font-semibold">
          <Award className="h-4 w-4 text-accent" aria-hidden />
          Badges
        </h3>
        {badges.length === 0 ? (
          <p className="text-sm text-muted-foreground">No badges earned yet</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label="Your badges">
            {badges.map((b) => (
              <li key={b} className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">
                {b}
              </li>
            ))}
          </ul>
        )}
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-2 text-center">
        <div className="rounded-lg bg-muted p-2">
          <dt className="flex items-center justify-center gap-1 text-xs text-muted-foreground">
            <CalendarCheck className="h-3.5 w-3.5" aria-hidden />
            Events attended
          </dt>
          <dd className="text-lg font-bold" data-testid="gaming-events-attended">
            {data?.eventsAttended ?? 0}
          </dd>
        </div>
        <div className="rounded-lg bg-muted p-2">
          <dt className="flex items-center justify-center gap-1 text-xs text-muted-foreground">
            <Store className="h-3.5 w-3.5" aria-hidden />
            Merchants visited
          </dt>
          <dd className="text-lg font-bold" data-testid="gaming-merchants-visited">
            {data?.merchantsVisited ?? 0}
          </dd>
        </div>
      </dl>
      {isError && !data && <p className="mt-2 text-xs text-muted-foreground">Progress could not be loaded; it will retry shortly.</p>}
    </section>
  );
}
