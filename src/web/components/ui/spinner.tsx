/** The loading spinner shown while authentication is pending (and for other waits). */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[50vh] items-center justify-center">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-muted border-t-primary" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** A small inline loading line, for dialogs and sections (the page spinner is too tall there). */
export function InlineLoading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
      <span className="h-5 w-5 animate-spin rounded-full border-2 border-muted border-t-primary motion-reduce:animate-none" aria-hidden />
      {label}
    </div>
  );
}
