import { useEffect, useState } from 'react';

const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** How long ago: '5 minutes ago', 'yesterday', 'just now' (under 45 s). */
export function relativeTime(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  if (!Number.isFinite(at)) return '';
  // Past times only: a clock a little behind the server must not say "in 1 minute".
  let diff = Math.min(0, (at - now) / 1000);
  if (Math.abs(diff) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(diff) < size) return rtf.format(Math.round(diff), unit);
    diff /= size;
  }
  return '';
}

/** The current time, refreshed every `everyMs` so relative times and 24 h windows stay true. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

export const formatPoints = (n: number) => n.toLocaleString('en-US');
