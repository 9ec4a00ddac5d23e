import { PartyPopper, X } from 'lucide-react';
import { useState } from 'react';
import type { BadgeResponse } from '../../../contract/gaming.ts';
import { useNow } from './gaming-format.ts';
import { useUserBadges } from './gaming.queries.ts';

/** A badge counts as new for a day after it was earned. */
export const NEW_BADGE_WINDOW_MS = 24 * 3600 * 1000;
/** localStorage key: the ids of badges whose banner the user closed. */
export const DISMISSED_BADGES_KEY = 'townbeat:dismissed-badges';

export function readDismissed(): string[] {
  try {
    const raw = JSON.parse(localStorage.getItem(DISMISSED_BADGES_KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function writeDismissed(ids: string[]) {
  try {
    // Only the latest few matter: a badge older than a day never shows again anyway.
    localStorage.setItem(DISMISSED_BADGES_KEY, JSON.stringify(ids.slice(-50)));
  } catch {
    // Private mode or a full store: the banner just closes for this visit.
  }
}

/** The newest badge earned in the last 24 h that the user has not dismissed, if any. */
export function newestUndismissedBadge(badges: readonly BadgeResponse[], dismissed: readonly string[], now: number): BadgeResponse | null {
  const skip = new Set(dismissed);
  let best: BadgeResponse | null = null;
  for (const b of badges) {
    const at = new Date(b.earnedAt).getTime();
    if (!Number.isFinite(at) || now - at > NEW_BADGE_WINDOW_MS || skip.has(b.id)) continue;
    if (!best || at >= new Date(best.earnedAt).getTime()) best = b;
  }
  return best;
}

/** The green 'New Badge Unlocked' banner of the Discover home (spec section 2), dismissible per badge. */
export function NewBadgeBanner() {
  const { data } = useUserBadges();
  const now = useNow();
  const [dismissed, setDismissed] = useState(readDismissed);
  const badge = data ? newestUndismissedBadge(data, dismissed, now) : null;
  if (!badge) return null;

  const dismiss = () => {
    const next = [...readDismissed().filter((id) => id !== badge.id), badge.id];
    writeDismissed(next);
    setDismissed(next);
  };

  return (
    <section
      aria-labelledby="new-badge-heading"
      className="mb-6 flex items-start gap-3 rounded-lg border border-success/40 bg-success-soft p-4 text-foreground"
      data-testid="new-badge-banner"
    >
      <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-success text-white dark:text-background">
        <PartyPopper className="h-5 w-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="new-badge-heading" className="text-base font-bold text-success">
          New Badge Unlocked
        </h2>
        <p className="text-sm">
          You earned <span className="font-semibold">{badge.title}</span>: {badge.rule}.
        </p>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label={`Dismiss the ${badge.title} badge banner`}
        className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-success/15"
      >
        <X className="h-5 w-5" aria-hidden />
      </button>
    </section>
  );
}
