import { Check, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { safeReturnTo } from '../../../contract/auth.ts';
import { CATEGORIES } from '../../../contract/events.ts';
import type { InterestsBody } from '../../../contract/recommendations.ts';
import { Button } from '../../components/ui/button.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useInterests, useSaveInterests } from '../discover/recommendations.queries.ts';
import { useCityConfig } from '../events/events.queries.ts';

function Pick({ label, on, onToggle }: { label: string; on: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onToggle}
      className={`inline-flex min-h-11 items-center gap-1.5 rounded-full border px-4 text-sm font-medium transition-colors duration-150 ${
        on ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted'
      }`}
    >
      {on && <Check className="h-4 w-4" aria-hidden />}
      {label}
    </button>
  );
}

const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

/**
 * The short step after sign-up (/welcome): pick categories and neighbourhoods so the first
 * recommendations are not a guess, or skip. Shown once: afterwards it goes straight on.
 */
export default function WelcomePage() {
  const [, navigate] = useLocation();
  const next = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  const interests = useInterests();
  const save = useSaveInterests();
  const { data: config } = useCityConfig();
  const [categories, setCategories] = useState<string[]>([]);
  const [neighbourhoods, setNeighbourhoods] = useState<string[]>([]);

  if (interests.data?.chosen && !save.isPending && !save.isSuccess) return <Redirect to={next} replace />;

  const submit = (body: InterestsBody) => save.mutate(body, { onSuccess: () => navigate(next, { replace: true }) });
  const error = save.error instanceof ApiError ? (save.error.serverMessage ?? save.error.message) : save.error ? 'Could not reach the server. Try again.' : null;

  return (
    <section aria-labelledby="welcome-heading" className="mx-auto max-w-2xl rounded-lg border border-border bg-card p-6 shadow-sm">
      <h1 id="welcome-heading" className="flex items-center gap-2 text-2xl font-bold">
        <Sparkles className="h-6 w-6 text-accent" aria-hidden />
        What are you into?
      </h1>
      <p className="mt-1 text-sm text-muted-foreground">Pick a few, and your recommendations start from them. You can skip this.</p>

      <fieldset className="mt-5">
        <legend className="mb-2 text-sm font-semibold">Categories</legend>
        <div className="flex flex-wrap gap-2">
          {CATEGORIES.map((c) => (
            <Pick key={c} label={c} on={categories.includes(c)} onToggle={() => setCategories((l) => toggle(l, c))} />
          ))}
        </div>
      </fieldset>

      <fieldset className="mt-5">
        <legend className="mb-2 text-sm font-semibold">Neighbourhoods</legend>
        <div className="flex flex-wrap gap-2">
          {(config?.city.neighbourhoods ?? []).map((n) => (
            <Pick key={n.name} label={n.name} on={neighbourhoods.includes(n.name)} onToggle={() => setNeighbourhoods((l) => toggle(l, n.name))} />
          ))}
        </div>
      </fieldset>

      {error && (
        <p role="alert" className="mt-4 rounded-md bg-destructive/10 p-3 text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="outline" disabled={save.isPending} onClick={() => submit({ categories: [], neighbourhoods: [] })}>
          Skip
        </Button>
        <Button
          disabled={save.isPending || (categories.length === 0 && neighbourhoods.length === 0)}
          onClick={() => submit({ categories: categories as InterestsBody['categories'], neighbourhoods })}
        >
          {save.isPending ? 'Saving…' : 'Save interests'}
        </Button>
      </div>
    </section>
  );
}
