import { Eye, Hammer, Heart, ListPlus, RotateCcw } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useDraft } from '../../lib/use-draft.ts';
import { useLocation } from 'wouter';
import {
  FORGE_FAILED_FALLBACK,
  FORGE_FAILED_TITLE,
  MEMORY_MAX,
  MISSING_FIELDS_MESSAGE,
  OUTPUT_TYPES,
  type Geosymbol,
  type OutputType,
  type PrivacyLevel,
} from '../../../contract/memories.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { GeosymbolDetails } from './geosymbol-card.tsx';
import { useAddToHunt, useForgeMemory, useGallery, useVoteGeosymbol } from './memories.queries.ts';

const controlClass = 'min-h-11 w-full rounded-lg border border-border bg-card px-3 text-sm focus:outline-none focus:ring-2 focus:ring-primary';
const EMPTY = { location: '', emotionalMemory: '', symbolicElements: '', userContext: '', outputType: 'Memory Rune' as OutputType, privacyLevel: 'community' as PrivacyLevel };

/** Why 'Add to Active Hunt' cannot be used for this geosymbol, or null when it can. */
export function addToHuntBlocker(g: Geosymbol): string | null {
  if (!g.mine) return 'Only the author can add a memory to a hunt.';
  if (g.nodeId) return 'Already part of the active hunt.';
  if (g.privacy_level === 'private') return 'Private memories cannot join a hunt; forge it as community or public.';
  if (g.lat === null || g.lng === null) return 'This place is not on the map, so it cannot become a hunt node.';
  return null;
}

const serverMessage = (err: Error) => (err instanceof ApiError ? err.serverMessage : undefined);

function ResultCard({ g, onReset }: { g: Geosymbol; onReset: () => void }) {
  const [, navigate] = useLocation();
  const add = useAddToHunt();
  const [current, setCurrent] = useState(g);
  const blocker = addToHuntBlocker(current);
  const canPreview = current.lat !== null && current.lng !== null;
  return (
    <section aria-labelledby="forge-result" className="rounded-xl border border-border bg-card p-4" data-testid="forge-result">
      <h2 id="forge-result" className="mb-3 text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        Memory forged
      </h2>
      <GeosymbolDetails g={current} />
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="outline" onClick={onReset}>
          <RotateCcw className="h-4 w-4" aria-hidden /> Forge Another Memory
        </Button>
        <Button
          variant="outline"
          onClick={() => {
            const q = new URLSearchParams(canPreview ? { lat: String(current.lat), lng: String(current.lng), name: current.placeName ?? current.location } : {});
            navigate(`/ar-discovery${canPreview ? `?${q.toString()}` : ''}`);
          }}
        >
          <Eye className="h-4 w-4" aria-hidden /> Preview AR Experience
        </Button>
        <Button
          disabled={Boolean(blocker) || add.isPending}
          aria-describedby={blocker ? 'add-to-hunt-why' : undefined}
          onClick={() =>
            add.mutate(current.id, {
              onSuccess: (res) => {
                setCurrent(res.geoSymbol);
                toast({ title: 'Added to the hunt', description: `${res.node.name} is now a node of ${res.hunt.name}.` });
              },
              onError: (err) => toast({ title: 'Could not add to the hunt', description: serverMessage(err) ?? 'Please try again.', variant: 'destructive' }),
            })
          }
        >
          <ListPlus className="h-4 w-4" aria-hidden /> Add to Active Hunt
        </Button>
      </div>
      {blocker && (
        <p id="add-to-hunt-why" className="mt-2 text-xs text-muted-foreground">
          {blocker}
        </p>
      )}
      {!canPreview && <p className="mt-1 text-xs text-muted-foreground">The AR preview opens at your own location because this place is not on the map.</p>}
    </section>
  );
}

function Gallery() {
  const { data, isPending, isError, refetch } = useGallery();
  const vote = useVoteGeosymbol();
  return (
    <section aria-labelledby="forge-gallery" className="space-y-3">
      <h2 id="forge-gallery" className="text-lg font-semibold">
        Community gallery
      </h2>
      {isPending ? (
        <p className="text-sm text-muted-foreground">Loading forged memories…</p>
      ) : isError ? (
        <div role="alert" className="text-sm">
          The gallery could not be loaded.{' '}
          <button type="button" className="underline" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : data.symbols.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-foreground">
          No memories have been shared with the community yet. Forge one and choose community or public to start the gallery.
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="forge-gallery">
          {data.symbols.map((g) => (
            <li key={g.id} className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4" data-testid="gallery-item">
              <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{g.type}</p>
              <h3 className="font-semibold">{g.symbol}</h3>
              <p className="text-xs text-muted-foreground">
                {g.placeName ?? g.location} · resonance {g.emotional_resonance}/10 · {g.reward.points} pts
              </p>
              <p className="line-clamp-3 text-sm">{g.story_trigger}</p>
              <div className="mt-auto flex items-center justify-between">
                <span className="text-xs text-muted-foreground">by {g.author}</span>
                <Button
                  variant={g.voted ? 'secondary' : 'ghost'}
                  aria-pressed={g.voted}
                  aria-label={`${g.voted ? 'Remove your vote for' : 'Vote for'} ${g.symbol}`}
                  disabled={vote.isPending || g.privacy_level === 'private'}
                  onClick={() => vote.mutate(g.id, { onError: (err) => toast({ title: 'Error', description: serverMessage(err) ?? 'Your vote could not be saved', variant: 'destructive' }) })}
                >
                  <Heart className={`h-4 w-4 ${g.voted ? 'fill-current text-destructive' : ''}`} aria-hidden /> {g.metadata.communityVotes}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /memory-forge: turns a place memory into a geosymbol (spec sections 2 and 5), with the community gallery. */
export default function MemoryForgePage() {
  const id = useId();
  // Kept as a draft: leaving the page or reloading it does not lose a memory being written.
  const [form, setForm, clearForm] = useDraft('memory-forge', EMPTY);
  const [missing, setMissing] = useState(false);
  const [result, setResult] = useState<Geosymbol | null>(null);
  const forge = useForgeMemory();
  const set = <K extends keyof typeof EMPTY>(key: K) => (value: (typeof EMPTY)[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.location.trim() || !form.emotionalMemory.trim()) {
      setMissing(true);
      toast({ title: 'Missing Information', description: 'Please provide both a location and emotional memory.', variant: 'destructive' });
      return;
    }
    setMissing(false);
    forge.mutate(form, {
      onSuccess: (res) => {
        setResult(res.geoSymbol);
        clearForm();
      },
      onError: (err) => toast({ title: FORGE_FAILED_TITLE, description: serverMessage(err) ?? FORGE_FAILED_FALLBACK, variant: 'destructive' }),
    });
  }

  function reset() {
    setResult(null);
    clearForm();
    setMissing(false);
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <header>
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <Hammer className="h-6 w-6 text-primary" aria-hidden /> Memory Forge
        </h1>
        <p className="text-sm text-muted-foreground">Turn a memory of a place into a geosymbol other players can find.</p>
      </header>

      {result ? (
        <ResultCard key={result.id} g={result} onReset={reset} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4 rounded-xl border border-border bg-card p-4" aria-describedby={missing ? `${id}-missing` : undefined}>
          {missing && (
            <p id={`${id}-missing`} role="alert" className="rounded-lg bg-destructive/10 p-3 text-sm text-destructive">
              {MISSING_FIELDS_MESSAGE}
            </p>
          )}
          <div className="space-y-1">
            <label htmlFor={`${id}-location`} className="text-sm font-semibold">
              Location
            </label>
            <input id={`${id}-location`} value={form.location} onChange={(e) => set('location')(e.target.value)} maxLength={200} placeholder="e.g. Sellwood riverfront, Laurelhurst Theater" className={controlClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-memory`} className="text-sm font-semibold">
              Emotional memory
            </label>
            <textarea
              id={`${id}-memory`}
              value={form.emotionalMemory}
              onChange={(e) => set('emotionalMemory')(e.target.value.slice(0, MEMORY_MAX))}
              maxLength={MEMORY_MAX}
              rows={6}
              aria-describedby={`${id}-count`}
              placeholder="What happened here, and how did it feel?"
              className={`${controlClass} py-2`}
            />
            <p id={`${id}-count`} className="text-right text-xs text-muted-foreground">
              {form.emotionalMemory.length}/{MEMORY_MAX}
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1">
              <label htmlFor={`${id}-elements`} className="text-sm font-semibold">
                Symbolic elements <span className="font-normal text-muted-foreground">(optional)</span>
              </label>
              <input id={`${id}-elements`} value={form.symbolicElements} onChange={(e) => set('symbolicElements')(e.target.value)} maxLength={300} placeholder="a red kite, grandma's bench" className={controlClass} />
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-context`} className="text-sm font-semibold">
                Context <span className="font-normal text-muted-foreground">(optional)</span>
              </label>
              <input id={`${id}-context`} value={form.userContext} onChange={(e) => set('userContext')(e.target.value)} maxLength={300} placeholder="Who you were with, what year" className={controlClass} />
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-type`} className="text-sm font-semibold">
                Output type
              </label>
              <select id={`${id}-type`} value={form.outputType} onChange={(e) => set('outputType')(e.target.value as OutputType)} className={controlClass}>
                {OUTPUT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-privacy`} className="text-sm font-semibold">
                Privacy
              </label>
              <select id={`${id}-privacy`} value={form.privacyLevel} onChange={(e) => set('privacyLevel')(e.target.value as PrivacyLevel)} className={controlClass}>
                <option value="community">Community (signed-in members)</option>
                <option value="public">Public (anyone)</option>
                <option value="private">Private (only me)</option>
              </select>
            </div>
          </div>
          <Button type="submit" disabled={forge.isPending}>
            <Hammer className="h-4 w-4" aria-hidden /> {forge.isPending ? 'Forging…' : 'Forge Memory'}
          </Button>
        </form>
      )}

      <Gallery />
    </div>
  );
}
