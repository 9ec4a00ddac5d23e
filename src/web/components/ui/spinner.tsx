/** The loading spinner shown while authentication is pending (and for other waits). */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[50vh] items-center justify-center">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-muted border-t-primary" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}
