import { Camera, CameraOff, Compass, MapPin, Share2, Sparkles, Trophy } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { AR_DEFAULT_RADIUS_M, type ArEvent, type DiscoverResponse } from '../../../contract/ar.ts';
import { Button } from '../../components/ui/button.tsx';
import { Progress } from '../../components/ui/progress.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useCityConfig } from '../events/events.queries.ts';
import { ArEventItem } from './ar-event-item.tsx';
import { fetchNearbyEvents, useArAchievements, useRecordDiscovery, useShareDiscovery } from './ar.queries.ts';
import { CAMERA_DENIED_AR, compassPoint, formatDistance, GEO_FALLBACK_MS, headingOf, overlayLeft, overlayScale, sampleEvents, type ShownEvent } from './ar-view.ts';

type Phase = 'off' | 'starting' | 'on';
type Place = { lat: number; lng: number; name: string };

const RADII = [1000, 5000, 20000] as const;

const FEATURES = [
  'Live camera view with event markers placed by compass direction',
  'Distance and direction to every upcoming event nearby',
  'Points for AR sessions that find real events',
  'Share a discovery with the community',
];

/** The start place from `?lat=&lng=&name=` (used by the memory forge's 'Preview AR Experience'). */
function placeFromQuery(search: string): Place | null {
  const q = new URLSearchParams(search);
  const lat = Number(q.get('lat'));
  const lng = Number(q.get('lng'));
  if (!q.get('lat') || !q.get('lng') || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, name: (q.get('name') ?? '').slice(0, 200) };
}

/** The device position, or null when it is refused, unavailable or slower than 3 s (spec section 8). */
function locate(): Promise<Place | null> {
  return new Promise((resolve) => {
    if (!navigator.geolocation) return resolve(null);
    const timer = setTimeout(() => resolve(null), GEO_FALLBACK_MS);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        clearTimeout(timer);
        resolve({ lat: p.coords.latitude, lng: p.coords.longitude, name: 'Your location' });
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: GEO_FALLBACK_MS, maximumAge: 60_000 },
    );
  });
}

function Achievements() {
  const { data, isPending, isError } = useArAchievements();
  return (
    <section aria-labelledby="ar-achievements" className="rounded-xl border border-border bg-card p-4">
      <h2 id="ar-achievements" className="flex items-center gap-2 font-semibold">
        <Trophy className="h-4 w-4 text-primary" aria-hidden /> Achievements
      </h2>
      {isPending ? (
        <p className="mt-2 text-sm text-muted-foreground">Loading achievements…</p>
      ) : isError ? (
        <p className="mt-2 text-sm text-muted-foreground">Achievements could not be loaded.</p>
      ) : (
        <ul className="mt-3 space-y-3" data-testid="ar-achievements">
          {data.achievements.map((a) => (
            <li key={a.id}>
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <span className="font-medium">
                  {a.title} {a.earned && <span className="text-xs font-semibold text-primary">Earned</span>}
                </span>
                <span className="tabular-nums text-muted-foreground" data-testid={`achievement-${a.id}`}>
                  {a.progress}/{a.target}
                </span>
              </div>
              <p className="text-xs text-muted-foreground">{a.description}</p>
              <Progress value={a.progress} max={a.target} label={`${a.title} progress`} className="mt-1" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /ar-discovery: the camera with event overlays by compass bearing, a list by distance, achievements. */
export default function ArDiscoveryPage() {
  const search = useSearch();
  const startPlace = placeFromQuery(search);
  const { data: config } = useCityConfig();
  const unit = config?.city.distanceUnit ?? 'km';
  const timeZone = config?.city.timeZone;
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const sessionRef = useRef(0);
  const [phase, setPhase] = useState<Phase>('off');
  const [radius, setRadius] = useState<number>(AR_DEFAULT_RADIUS_M);
  const [place, setPlace] = useState<Place | null>(null);
  const [events, setEvents] = useState<ShownEvent[] | null>(null);
  const [sample, setSample] = useState<string | null>(null);
  const [heading, setHeading] = useState<number | null>(null);
  const [recorded, setRecorded] = useState<DiscoverResponse | null>(null);
  const [status, setStatus] = useState('');
  const record = useRecordDiscovery();
  const share = useShareDiscovery();

  const onOrientation = useCallback((e: DeviceOrientationEvent) => {
    const h = headingOf(e);
    if (h !== null) setHeading(h);
  }, []);

  const stop = useCallback(() => {
    sessionRef.current += 1;
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    window.removeEventListener('deviceorientationabsolute', onOrientation as EventListener);
    window.removeEventListener('deviceorientation', onOrientation);
    setPhase('off');
    setEvents(null);
    setSample(null);
    setHeading(null);
    setStatus('');
  }, [onOrientation]);

  useEffect(() => stop, [stop]);

  async function start() {
    if (phase !== 'off') return;
    const session = ++sessionRef.current;
    setRecorded(null);
    setPhase('starting');
    setStatus('Starting the camera…');
    // iOS asks for the compass on a tap; elsewhere the events simply arrive (or never do).
    const Orientation = window.DeviceOrientationEvent as unknown as { requestPermission?: () => Promise<string> } | undefined;
    if (Orientation?.requestPermission) void Orientation.requestPermission().catch(() => 'denied');
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no camera API'), { name: 'NotSupportedError' });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (err) {
      const name = (err as { name?: string } | null)?.name ?? '';
      setPhase('off');
      setStatus('');
      if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') window.alert(CAMERA_DENIED_AR);
      else toast({ title: 'Camera unavailable', description: 'The camera could not be started. Open Townbeat over HTTPS on a device with a camera and try again.', variant: 'destructive' });
      return;
    }
    if (session !== sessionRef.current) return stream.getTracks().forEach((t) => t.stop());
    streamRef.current = stream;
    if (videoRef.current) {
      videoRef.current.srcObject = stream;
      void videoRef.current.play().catch(() => undefined);
    }
    window.addEventListener('deviceorientationabsolute', onOrientation as EventListener);
    window.addEventListener('deviceorientation', onOrientation);
    setPhase('on');
    setStatus('Finding your location…');
    const where = startPlace ?? (await locate());
    if (session !== sessionRef.current) return;
    if (!where) {
      setEvents(sampleEvents(new Date()));
      setSample('Your location is not available, so these are sample events, not real ones.');
      setStatus('');
      return;
    }
    setPlace(where);
    setStatus('Looking for events nearby…');
    try {
      const found = (await fetchNearbyEvents({ lat: where.lat, lng: where.lng, radius })).events;
      if (session !== sessionRef.current) return;
      setEvents(found);
      setStatus('');
      if (found.length > 0) {
        record.mutate(
          { location: where, events: found.map((e: ArEvent) => e.id) },
          {
            onSuccess: (res) => {
              setRecorded(res);
              if (res.pointsAwarded > 0) toast({ title: `+${res.pointsAwarded} points`, description: res.message });
            },
          },
        );
      }
    } catch {
      if (session !== sessionRef.current) return;
      setEvents(sampleEvents(new Date()));
      setSample('Nearby events could not be loaded, so these are sample events, not real ones.');
      setStatus('');
    }
  }

  const shown = events ? [...events].sort((a, b) => a.distanceM - b.distanceM) : [];
  const radiusLabel = formatDistance(radius, unit);

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <header>
        <h1 className="text-2xl font-bold">AR Event Discovery</h1>
        <p className="text-sm text-muted-foreground">
          Point your camera around you to see upcoming events{startPlace ? ` near ${startPlace.name || 'the chosen place'}` : ''}.
        </p>
      </header>

      <div className="grid gap-4 lg:grid-cols-[1fr_320px]">
        <div className="space-y-3">
          <div className="relative aspect-[3/4] w-full overflow-hidden rounded-xl bg-black sm:aspect-video">
            <video ref={videoRef} data-testid="ar-video" className="h-full w-full object-cover" playsInline muted aria-label="Camera view" />
            {phase === 'off' && (
              <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-6 text-center text-white/80">
                <Camera className="h-10 w-10" aria-hidden />
                <p>Start AR to turn on the camera and see events around you.</p>
              </div>
            )}
            {phase === 'on' && heading !== null && (
              <div className="pointer-events-none absolute inset-0" data-testid="ar-overlays">
                {shown.map((e) => {
                  const left = overlayLeft(e.bearing, heading);
                  if (left === null) return null;
                  const scale = overlayScale(e.distanceM, radius);
                  return (
                    <div
                      key={e.id}
                      className="absolute top-1/3 -translate-x-1/2 rounded-lg bg-card/90 px-3 py-2 text-xs text-foreground shadow-lg"
                      style={{ left: `${left}%`, transform: `translateX(-50%) scale(${scale})` }}
                      data-testid="ar-overlay"
                    >
                      <p className="font-semibold">{e.title}</p>
                      <p className="text-muted-foreground">
                        {formatDistance(e.distanceM, unit)} · {e.category}
                      </p>
                    </div>
                  );
                })}
              </div>
            )}
            {phase === 'on' && heading !== null && (
              <p className="absolute left-2 top-2 flex items-center gap-1 rounded bg-black/60 px-2 py-1 text-xs text-white">
                <Compass className="h-3 w-3" aria-hidden /> Facing {compassPoint(heading)}
              </p>
            )}
          </div>

          <div className="flex flex-wrap items-center gap-2">
            {phase === 'off' ? (
              <Button onClick={() => void start()}>
                <Camera className="h-4 w-4" aria-hidden /> Start AR
              </Button>
            ) : (
              <Button variant="destructive" onClick={stop}>
                <CameraOff className="h-4 w-4" aria-hidden /> Stop AR
              </Button>
            )}
            <label className="flex items-center gap-2 text-sm">
              <span className="text-muted-foreground">Radius</span>
              <select
                className="min-h-11 rounded-lg border border-border bg-card px-2"
                value={radius}
                disabled={phase !== 'off'}
                onChange={(e) => setRadius(Number(e.target.value))}
              >
                {RADII.map((r) => (
                  <option key={r} value={r}>
                    {formatDistance(r, unit)}
                  </option>
                ))}
              </select>
            </label>
            <p role="status" aria-live="polite" className="text-sm text-muted-foreground">
              {status}
            </p>
          </div>

          {recorded && (
            <div className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-card p-3 text-sm" data-testid="ar-recorded">
              <Sparkles className="h-4 w-4 text-primary" aria-hidden />
              <span>{recorded.message}</span>
              <Button
                variant="outline"
                disabled={recorded.discovery.shared || share.isPending}
                onClick={() =>
                  share.mutate(recorded.discovery.id, {
                    onSuccess: (res) => {
                      setRecorded({ ...recorded, discovery: res.discovery });
                      toast({ title: 'Discovery shared', description: 'Thanks for sharing your AR discovery.' });
                    },
                    onError: () => toast({ title: 'Error', description: 'The discovery could not be shared', variant: 'destructive' }),
                  })
                }
              >
                <Share2 className="h-4 w-4" aria-hidden /> {recorded.discovery.shared ? 'Shared' : 'Share discovery'}
              </Button>
            </div>
          )}
        </div>

        <aside className="space-y-4">
          {phase !== 'off' && events && (
            <section aria-labelledby="ar-nearby" className="rounded-xl border border-border bg-card p-4">
              <h2 id="ar-nearby" className="flex items-center gap-2 font-semibold">
                <MapPin className="h-4 w-4 text-primary" aria-hidden /> {sample ? 'Sample events' : `Events within ${radiusLabel}`}
              </h2>
              {sample && <p className="mt-1 text-xs text-muted-foreground">{sample}</p>}
              {!sample && place && <p className="mt-1 text-xs text-muted-foreground">Around {place.name || 'the chosen place'}</p>}
              {shown.length === 0 ? (
                <p className="mt-2 text-sm text-muted-foreground">No upcoming events within {radiusLabel}. Stop AR, widen the radius and try again.</p>
              ) : (
                <ul className="mt-2 divide-y divide-border" data-testid="ar-event-list">
                  {shown.map((e) => (
                    <ArEventItem key={e.id} event={e} unit={unit} timeZone={timeZone} locale={config?.city.locale} />
                  ))}
                </ul>
              )}
            </section>
          )}
          <Achievements />
          <section aria-labelledby="ar-features" className="rounded-xl border border-border bg-card p-4">
            <h2 id="ar-features" className="font-semibold">
              AR features
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
              {FEATURES.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </section>
        </aside>
      </div>
    </div>
  );
}
