import * as ProgressPrimitive from '@radix-ui/react-progress';

/** Spec section 5: max must be a positive number (else 100); value is kept within 0..max. */
export function normaliseProgress(value: number | null | undefined, max?: number | null) {
  const safeMax = typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : 100;
  if (value === null || value === undefined || !Number.isFinite(value)) return { value: null, max: safeMax };
  return { value: Math.min(safeMax, Math.max(0, value)), max: safeMax };
}

export function Progress({ value, max, label, className = '' }: { value?: number | null; max?: number; label: string; className?: string }) {
  const p = normaliseProgress(value, max);
  const pct = p.value === null ? 0 : (p.value / p.max) * 100;
  return (
    <ProgressPrimitive.Root
      value={p.value}
      max={p.max}
      aria-label={label}
      className={`relative h-2 w-full overflow-hidden rounded-full bg-muted ${className}`}
    >
      <ProgressPrimitive.Indicator className="h-full bg-primary transition-transform duration-200" style={{ transform: `translateX(-${100 - pct}%)` }} />
    </ProgressPrimitive.Root>
  );
}
