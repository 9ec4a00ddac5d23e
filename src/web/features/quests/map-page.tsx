import 'leaflet/dist/leaflet.css';
import './quest-map.css';
import { Camera, Check, Crosshair, MapPin, Plus, Send, Trophy } from 'lucide-react';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { QuestNode } from '../../../contract/quests.ts';
import { Button } from '../../components/ui/button.tsx';
import { Chip } from '../../components/ui/chip.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../auth/auth.queries.ts';
import { useInterfaceMode } from '../auth/interface-mode.ts';
import { useCityConfig } from '../events/events.queries.ts';
import { formatDistance } from '../ar/ar-view.ts';
import { EvidenceReview } from './evidence-review.tsx';
import { QuestMap } from './quest-map.tsx';
import { useCreateNode, useHuntProgress, useMapEvents, useQuestMap, useSubmitEvidence, useUpdateNode } from './quests.queries.ts';

type Position = { lat: number; lng: number; accuracy: number };
const DIFFICULTY_TONE = { easy: 'success', medium: 'accent', hard: 'destructive', expert: 'destructive' } as const;

const errorText = (e: unknown) => (e instanceof ApiError ? (e.serverMessage ?? e.message) : e instanceof Error ? e.message : 'Something went wrong');

/** The browser's position once, as a promise. */
function locate(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) return reject(new Error('Location is not available in this browser'));
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy }),
      (e) => reject(new Error(e.code === e.PERMISSION_DENIED ? 'Location permission was denied' : 'Could not find your location')),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 10_000 },
    );
  });
}

/** A picked file as base64 without the data-URL prefix. */
function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(new Error('Could not read the photo'));
    r.readAsDataURL(file);
  });
}

/** /map: the quest map, nodes, the current hunt and the player's stats (spec section 2). */
export default function MapPage() {
  const config = useCityConfig();
  const map = useQuestMap();
  const progress = useHuntProgress();
  const { isAdmin } = useAuth();
  const [mode] = useInterfaceMode();
  const adminMode = isAdmin && mode === 'admin';
  const [position, setPosition] = useState<Position | null>(null);
  const [locating, setLocating] = useState(false);
  const [showEvents, setShowEvents] = useState(false);
  const events = useMapEvents(showEvents);
  const [selected, setSelected] = useState<QuestNode | null>(null);
  const [placing, setPlacing] = useState(false);
  const [newAt, setNewAt] = useState<{ lat: number; lng: number } | null>(null);
  const updateNode = useUpdateNode();

  const completed = useMemo(() => new Set(progress.data?.completedNodes ?? []), [progress.data]);
  const pending = useMemo(() => new Set(progress.data?.pendingNodes ?? []), [progress.data]);
  const nodes = map.data?.nodes ?? [];
  const hunt = map.data?.activeHunts[0];
  const huntProgress = progress.data?.hunts.find((h) => h.huntId === hunt?.id);

  async function findMe() {
    setLocating(true);
    try {
      setPosition(await locate());
    } catch (e) {
      toast({ title: 'Location unavailable', description: errorText(e), variant: 'destructive' });
    } finally {
      setLocating(false);
    }
  }

  return (
    <section aria-labelledby="map-heading" className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="map-heading" className="text-3xl font-bold">
            Quest Map
          </h1>
          <p className="mt-1 text-muted-foreground">Find the places, complete the nodes, finish the hunt.</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <span className="inline-flex items-center gap-1 rounded-full bg-muted px-3 py-2 text-sm font-semibold" data-testid="total-points">
            <Trophy className="h-4 w-4" aria-hidden /> {progress.data?.totalPoints ?? 0} points
          </span>
          <Button onClick={() => void findMe()} disabled={locating}>
            <Crosshair className="h-4 w-4" aria-hidden /> {locating ? 'Locating…' : 'Find Me'}
          </Button>
        </div>
      </div>

      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm">
            <input type="checkbox" className="h-4 w-4" checked={showEvents} onChange={(e) => setShowEvents(e.target.checked)} />
            Show upcoming events
          </label>
          {adminMode && (
            <Button variant={placing ? 'secondary' : 'outline'} onClick={() => setPlacing((p) => !p)}>
              <Plus className="h-4 w-4" aria-hidden /> {placing ? 'Cancel placing' : 'Add node'}
            </Button>
          )}
          {adminMode && <span className="text-xs text-muted-foreground">Drag a node to move it.</span>}
          {position && (
            <span className="text-xs text-muted-foreground" data-testid="my-position">
              You: {position.lat.toFixed(5)}, {position.lng.toFixed(5)} (±{Math.round(position.accuracy)} m)
            </span>
          )}
        </div>
        {config.data ? (
          <QuestMap
            city={config.data.city}
            tileUrl={config.data.mapTileUrl ?? null}
            nodes={nodes}
            completed={completed}
            selectedId={selected?.id ?? null}
            onSelect={setSelected}
            position={position}
            events={showEvents ? (events.data ?? null) : null}
            placing={placing}
            onPlace={(lat, lng) => {
              setPlacing(false);
              setNewAt({ lat, lng });
            }}
            editable={adminMode}
            onMove={(node, lat, lng) =>
              updateNode.mutate(
                { id: node.id, body: { latitude: lat, longitude: lng } },
                { onSuccess: () => toast({ title: 'Node moved', description: node.name }), onError: (e) => toast({ title: 'Could not move the node', description: errorText(e), variant: 'destructive' }) },
              )
            }
          />
        ) : (
          <div className="flex h-80 items-center justify-center rounded-xl border border-border">
            <Spinner label="Loading map" />
          </div>
        )}
      </div>

      <div className="grid gap-5 lg:grid-cols-[1fr_20rem]">
        <div>
          <h2 className="mb-3 text-xl font-semibold">Quest Nodes</h2>
          {map.isPending ? (
            <Spinner label="Loading quest nodes" />
          ) : map.isError ? (
            <p className="text-destructive">Could not load the quest map. {errorText(map.error)}</p>
          ) : nodes.length === 0 ? (
            <p className="text-muted-foreground">No quest nodes yet.</p>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2" aria-label="Quest nodes">
              {nodes.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    onClick={() => setSelected(n)}
                    className="h-full w-full rounded-xl border border-border bg-card p-4 text-left transition-colors hover:bg-muted focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary"
                    data-testid="node-card"
                  >
                    <div className="flex items-start justify-between gap-2">
                      <h3 className="font-semibold">{n.name}</h3>
                      <Chip tone={DIFFICULTY_TONE[n.difficulty]}>{n.difficulty}</Chip>
                    </div>
                    <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{n.description}</p>
                    <p className="mt-2 flex items-center gap-1 text-xs text-muted-foreground">
                      <MapPin className="h-3 w-3" aria-hidden /> {n.location.address || 'On the map'}
                    </p>
                    <div className="mt-2 flex flex-wrap items-center gap-1">
                      <span className="mr-1 text-sm font-semibold">{n.points} pts</span>
                      {completed.has(n.id) && <Chip tone="success">Completed</Chip>}
                      {pending.has(n.id) && <Chip tone="accent">Awaiting review</Chip>}
                      {n.requirements.map((r) => (
                        <Chip key={r}>{r}</Chip>
                      ))}
                      {n.isDemo && <Chip>Demo</Chip>}
                    </div>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <aside className="grid content-start gap-4">
          <div className="rounded-xl border border-border bg-card p-4" data-testid="current-hunt">
            <h2 className="text-lg font-semibold">Current Hunt</h2>
            {hunt ? (
              <>
                <p className="mt-1 font-medium">{hunt.name}</p>
                <p className="mt-1 text-sm text-muted-foreground">{hunt.description}</p>
                <p className="mt-2 text-sm">
                  {hunt.totalNodes} nodes{hunt.ordered ? ' · in order' : ''}
                </p>
                {hunt.reward && <p className="text-sm">Reward: {hunt.reward}</p>}
                <div className="mt-3">
                  <Progress value={huntProgress?.completed ?? 0} max={hunt.totalNodes} label={`${hunt.name} progress`} />
                  <p className="mt-1 text-xs text-muted-foreground" data-testid="hunt-progress">
                    {huntProgress?.completed ?? 0} of {hunt.totalNodes} completed{huntProgress?.finished ? ' · finished!' : ''}
                  </p>
                </div>
                {hunt.isDemo && <p className="mt-2 text-xs text-muted-foreground">Demo content</p>}
              </>
            ) : (
              <p className="mt-1 text-sm text-muted-foreground">No active hunt right now.</p>
            )}
          </div>
          <div className="rounded-xl border border-border bg-card p-4" data-testid="hunt-stats">
            <h2 className="text-lg font-semibold">Your Stats</h2>
            <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
              <dt className="text-muted-foreground">Level</dt>
              <dd className="font-semibold">{progress.data?.playerLevel ?? 1}</dd>
              <dt className="text-muted-foreground">Total points</dt>
              <dd className="font-semibold">{progress.data?.totalPoints ?? 0}</dd>
              <dt className="text-muted-foreground">Completed</dt>
              <dd className="font-semibold" data-testid="completed-count">
                {progress.data?.completedNodes.length ?? 0}
              </dd>
              <dt className="text-muted-foreground">Available</dt>
              <dd className="font-semibold">{progress.data?.availableNodes.length ?? 0}</dd>
            </dl>
          </div>
          {adminMode && <EvidenceReview />}
        </aside>
      </div>

      {selected && (
        <NodeDetails
          node={selected}
          done={completed.has(selected.id)}
          waiting={pending.has(selected.id)}
          position={position}
          onPosition={setPosition}
          onClose={() => setSelected(null)}
        />
      )}
      {newAt && <NodeForm at={newAt} onClose={() => setNewAt(null)} />}
    </section>
  );
}

/** Node details with Submit Evidence (position) and Upload Photo (photo and position). */
function NodeDetails(props: { node: QuestNode; done: boolean; waiting: boolean; position: Position | null; onPosition(p: Position): void; onClose(): void }) {
  // Distances in the city's unit (miles in Portland), as the AR page gives them.
  const unit = useCityConfig().data?.city.distanceUnit ?? 'km';
  const { node, done, waiting } = props;
  const submit = useSubmitEvidence();
  const [result, setResult] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  async function send(photo?: string) {
    setResult(null);
    try {
      const here = await locate().catch((e: unknown) => {
        if (props.position) return props.position;
        throw e;
      });
      props.onPosition(here);
      const res = await submit.mutateAsync({ nodeId: node.id, body: { latitude: here.lat, longitude: here.lng, accuracy: here.accuracy, ...(photo ? { photo } : {}) } });
      if (res.completed) {
        const text = res.pointsEarned > 0 ? `Node completed! +${res.pointsEarned} points${res.huntBonus ? ` and +${res.huntBonus} hunt bonus` : ''}` : 'You already completed this node.';
        // The server's own notification announces the points; the dialog says it too.
        setResult(text);
      } else if (res.pending) {
        setResult('Photo sent: an admin will review it.');
      } else {
        setResult(`Not there yet: you are ${formatDistance(res.distanceM, unit)} away (within ${formatDistance(node.radiusM, unit)} counts).`);
      }
    } catch (e) {
      setResult(errorText(e));
    }
  }

  return (
    <Dialog open onOpenChange={(o) => !o && props.onClose()} title={node.name} description={node.description}>
      <div className="grid gap-3" data-testid="node-details">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Clue</dt>
          <dd>{node.clue || '—'}</dd>
          <dt className="text-muted-foreground">Category</dt>
          <dd>{node.category}</dd>
          <dt className="text-muted-foreground">Points</dt>
          <dd>{node.points}</dd>
          <dt className="text-muted-foreground">Where</dt>
          <dd>{node.location.address || `${node.latitude.toFixed(4)}, ${node.longitude.toFixed(4)}`}</dd>
        </dl>
        {node.requiresPhoto && <p className="text-sm text-muted-foreground">This node needs a photo, checked by an admin.</p>}
        {done && (
          <p className="flex items-center gap-1 text-sm font-semibold text-success">
            <Check className="h-4 w-4" aria-hidden /> Completed
          </p>
        )}
        {waiting && <p className="text-sm">Your photo is awaiting review.</p>}
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => void send()} disabled={submit.isPending || node.requiresPhoto}>
            <Send className="h-4 w-4" aria-hidden /> Submit Evidence
          </Button>
          <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={submit.isPending}>
            <Camera className="h-4 w-4" aria-hidden /> Upload Photo
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            capture="environment"
            className="sr-only"
            aria-label="Photo evidence"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void send(await fileToBase64(f));
            }}
          />
        </div>
        {submit.isPending && <Spinner label="Sending evidence" />}
        {result && (
          <p role="status" className="text-sm" data-testid="evidence-result">
            {result}
          </p>
        )}
      </div>
    </Dialog>
  );
}

/** Admin: a new node at the clicked place. */
function NodeForm({ at, onClose }: { at: { lat: number; lng: number }; onClose(): void }) {
  const create = useCreateNode();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const s = (k: string) => String(f.get(k) ?? '').trim();
    try {
      await create.mutateAsync({
        name: s('name'),
        category: s('category'),
        points: Number(s('points')),
        difficulty: s('difficulty') as QuestNode['difficulty'],
        description: s('description'),
        clue: s('clue'),
        address: s('address'),
        radiusM: Number(s('radiusM')),
        requiresPhoto: f.get('requiresPhoto') === 'on',
        requirements: s('requirements')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
        latitude: at.lat,
        longitude: at.lng,
      });
      toast({ title: 'Node added', description: s('name') });
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  }
  const input = 'mt-1 min-h-11 w-full rounded-lg border border-border bg-background px-3';
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Add node" description={`At ${at.lat.toFixed(5)}, ${at.lng.toFixed(5)}`}>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-3 text-sm">
        <label>
          Name
          <input name="name" required maxLength={120} className={input} />
        </label>
        <div className="grid grid-cols-2 gap-3">
          <label>
            Category
            <input name="category" required defaultValue="Landmark" className={input} />
          </label>
          <label>
            Points
            <input name="points" type="number" min={1} max={1000} required defaultValue={25} className={input} />
          </label>
          <label>
            Difficulty
            <select name="difficulty" defaultValue="easy" className={input}>
              <option value="easy">easy</option>
              <option value="medium">medium</option>
              <option value="hard">hard</option>
              <option value="expert">expert</option>
            </select>
          </label>
          <label>
            Radius (m)
            <input name="radiusM" type="number" min={10} max={1000} required defaultValue={75} className={input} />
          </label>
        </div>
        <label>
          Description
          <textarea name="description" maxLength={1000} className={`${input} py-2`} />
        </label>
        <label>
          Clue
          <input name="clue" maxLength={500} className={input} />
        </label>
        <label>
          Address
          <input name="address" maxLength={200} className={input} />
        </label>
        <label>
          Requirements (comma separated)
          <input name="requirements" className={input} />
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input name="requiresPhoto" type="checkbox" className="h-4 w-4" /> Requires a photo
        </label>
        {error && (
          <p role="alert" className="text-destructive">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            Add node
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

