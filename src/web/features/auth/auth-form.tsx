import type { ReactNode } from 'react';
import { Link } from 'wouter';

/** The frame shared by the sign-in and sign-up pages. */
export function AuthFrame({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-4">
      <div className="w-full max-w-md rounded-lg border border-border bg-card p-6 shadow-sm sm:p-8">
        <Link href="/" className="mb-6 inline-flex items-center gap-2 text-lg font-bold text-primary">
          <img src="/favicon.svg" alt="" className="h-7 w-7" />
          Townbeat
        </Link>
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mb-6 mt-1 text-sm text-muted-foreground">{subtitle}</p>
        {children}
        <div className="mt-6 text-sm text-muted-foreground">{footer}</div>
      </div>
    </main>
  );
}

/** A labelled input with its inline error, wired for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  const id = `field-${props.name}`;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        className="min-h-11 w-full rounded-lg border border-border bg-background px-3 text-base outline-none focus:border-ring"
      />
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-destructive">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** Field errors from a zod result or our 400 `issues` (paths like `body.email`). */
export function fieldErrors(issues: { path: string | (string | number | symbol)[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const path = Array.isArray(i.path) ? i.path.map(String) : i.path.split('.');
    const key = path[path.length - 1] ?? '';
    if (key && !out[key]) out[key] = i.message;
  }
  return out;
}
