import type { ReactNode } from 'react';

const TONES = {
  muted: 'bg-muted text-foreground',
  success: 'bg-success-soft text-success',
  accent: 'bg-accent-soft text-accent',
  destructive: 'bg-destructive/10 text-destructive',
} as const;

/** A small rounded label (a source type, a status, "Demo"). */
export function Chip({ children, tone = 'muted' }: { children: ReactNode; tone?: keyof typeof TONES }) {
  return <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[tone]}`}>{children}</span>;
}
