import { Award, Star } from 'lucide-react';
import { discoverBannerTier } from '../../../contract/gaming.ts';
import { Progress } from '../../components/ui/progress.tsx';
import { useAuth } from '../auth/auth.queries.ts';
import { formatPoints } from './gaming-format.ts';
import { useProgress } from './gaming.queries.ts';

/**
 * The Discover home's banner (spec section 2): points, badges and the next badge, shown only with
 * points > 0. It uses the banner's reading of the tiers (spec section 4): 'Local Legend!' from 150.
 */
export function PointsBanner() {
  const { user } = useAuth();
  const progress = useProgress({ enabled: Boolean(user && user.points > 0) });
  if (!user || user.points <= 0) return null;
  const points = user.points;
  const tier = discoverBannerTier(points);
  const badgeCount = progress.data?.badges.length;

  return (
    <section aria-label="Your points" className="mb-6 flex flex-col gap-3 rounded-lg border border-border bg-accent-soft p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-3">
        <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-card text-accent shadow-sm">
          <Star className="h-5 w-5" aria-hidden />
        </span>
        <div>
          <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <span className="text-lg font-bold text-accent" data-testid="banner-points">
              {formatPoints(points)} {points === 1 ? 'point' : 'points'}
            </span>
            {badgeCount !== undefined && (
              <span className="inline-flex items-center gap-1 text-sm font-semibold text-foreground" data-testid="banner-badges">
                <Award className="h-4 w-4 text-accent" aria-hidden />
                {badgeCount} {badgeCount === 1 ? 'badge' : 'badges'}
              </span>
            )}
          </p>
          <p className="text-sm text-foreground" data-testid="next-badge">
            {tier.target === null ? 'Local Legend!' : `Next badge: ${tier.name} at ${tier.target} points (${tier.target - points} to go)`}
          </p>
        </div>
      </div>
      {tier.target !== null && <Progress value={points} max={tier.target} label={`Progress to ${tier.name}`} className="sm:max-w-xs" />}
    </section>
  );
}
