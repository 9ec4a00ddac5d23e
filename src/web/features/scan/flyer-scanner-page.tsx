import { Camera, ImagePlus, Loader2, ScanText, Sparkles, TriangleAlert, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { FlyerScanResponse } from '../../../contract/scan.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { currentLocation, DEMO_FLYER_URL, FLYER_ACCEPT, flyerFileProblem, readFlyer } from './scan-input.ts';
import { ScanResultPanel } from './scan-result.tsx';
import { ScanChallengesList, ScanStatTiles } from './scan-stats.tsx';
import { NO_EVENT_TEXT, NO_EVENT_TITLE, SCAN_FAILED_TITLE, SCAN_SUCCESS_TITLE, scanErrorMessage, useFlyerScan } from './scan.queries.ts';

/** Spec section 3: no image, image chosen, processing, then a result or a failure. */
export type FlyerPhase = 'empty' | 'chosen' | 'processing' | 'result' | 'failed';

interface Chosen {
  name: string;
  dataUrl: string;
  base64: string;
  demo: boolean;
}

function successText(res: FlyerScanResponse): string {
  const r = res.result!;
  const badges = r.badges.length;
  return `+${r.pointsEarned} points · ${badges} new ${badges === 1 ? 'badge' : 'badges'}`;
}

/**
 * /scanner: a photo of a flyer becomes an event (issue 13). The image goes to the server as
 * base64 without its data-URL prefix; the OCR there takes a few seconds, shown as progress.
 */
export default function FlyerScannerPage() {
  const [phase, setPhase] = useState<FlyerPhase>('empty');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [response, setResponse] = useState<FlyerScanResponse | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const scanButton = useRef<HTMLButtonElement>(null);
  // A newer choice or scan makes the answers of an older one stale.
  const run = useRef(0);
  const scan = useFlyerScan();
  const { mutateAsync } = scan;
  useEffect(
    () => () => {
      run.current += 1;
    },
    [],
  );

  const choose = useCallback(async (file: Blob, name: string, demo: boolean) => {
    run.current += 1;
    const id = run.current;
    setProblem(null);
    setResponse(null);
    const bad = file instanceof File ? flyerFileProblem(file) : null;
    if (bad) {
      setChosen(null);
      setPhase('empty');
      setProblem(bad);
      return null;
    }
    try {
      const read = await readFlyer(file);
      if (id !== run.current) return null;
      const next = { name, demo, ...read };
      setChosen(next);
      setPhase('chosen');
      return next;
    } catch {
      if (id === run.current) setProblem('The image could not be read. Please choose another file.');
      return null;
    }
  }, []);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (await choose(file, file.name, false)) scanButton.current?.focus();
  };

  const submit = useCallback(
    async (image: Chosen) => {
      run.current += 1;
      const id = run.current;
      setProblem(null);
      setResponse(null);
      setPhase('processing');
      try {
        const location = await currentLocation();
        const res = await mutateAsync({ imageData: image.base64, ...(location ? { location } : {}) });
        if (id !== run.current) return;
        setResponse(res);
        setPhase('result');
        if (res.result) toast({ title: SCAN_SUCCESS_TITLE, description: successText(res) });
        else toast({ title: NO_EVENT_TITLE, description: NO_EVENT_TEXT });
      } catch (err) {
        if (id !== run.current) return;
        const message = scanErrorMessage(err);
        setProblem(message);
        setPhase('failed');
        toast({ title: SCAN_FAILED_TITLE, description: message, variant: 'destructive' });
      }
    },
    [mutateAsync],
  );

  const runDemo = async () => {
    setProblem(null);
    try {
      const res = await fetch(DEMO_FLYER_URL);
      if (!res.ok) throw new Error(String(res.status));
      const image = await choose(await res.blob(), 'Demo flyer', true);
      if (image) await submit(image);
    } catch {
      setProblem('The demo flyer could not be loaded. Please try again.');
    }
  };

  const clear = () => {
    run.current += 1;
    setChosen(null);
    setResponse(null);
    setProblem(null);
    setPhase('empty');
    fileInput.current?.focus();
  };

  const busy = phase === 'processing';
  const pickerClass = buttonClass('outline', `cursor-pointer focus-within:ring-2 focus-within:ring-ring ${busy ? 'pointer-events-none opacity-50' : ''}`);
  return (
    <section aria-labelledby="scanner-heading" className="mx-auto max-w-5xl">
      <h1 id="scanner-heading" className="text-3xl font-bold">
        Event Flyer Scanner
      </h1>
      <p className="mt-1 mb-5 text-muted-foreground">Snap a poster you spot around town: we read it, add the event for everyone, and you earn points.</p>

      <ScanStatTiles />

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <section aria-labelledby="scan-upload-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
            <h2 id="scan-upload-heading" className="text-lg font-semibold">
              Scan a flyer
            </h2>
            <p className="text-sm text-muted-foreground">A JPEG, PNG or WebP photo of an event flyer or poster, up to 8 MB.</p>

            <div className="mt-4 flex flex-wrap gap-2">
              <label className={pickerClass}>
                <ImagePlus className="h-4 w-4" aria-hidden />
                Choose image
                <input
                  ref={fileInput}
                  type="file"
                  accept={FLYER_ACCEPT}
                  className="sr-only"
                  disabled={busy}
                  onChange={(e) => void onFile(e)}
                  data-testid="flyer-file"
                />
              </label>
              {/* On phones this opens the rear camera; desktops show a file chooser. */}
              <label className={pickerClass}>
                <Camera className="h-4 w-4" aria-hidden />
                Take a photo
                <input ref={cameraInput} type="file" accept={FLYER_ACCEPT} capture="environment" className="sr-only" disabled={busy} onChange={(e) => void onFile(e)} />
              </label>
              <Button variant="secondary" onClick={() => void runDemo()} disabled={busy}>
                <Sparkles className="h-4 w-4" aria-hidden />
                Demo Scan
              </Button>
            </div>

            <div className="mt-4">
              {chosen ? (
                <figure className="relative overflow-hidden rounded-lg border border-border bg-muted">
                  <img src={chosen.dataUrl} alt={chosen.demo ? 'The demo flyer: Winter Lantern Walk' : `Your flyer: ${chosen.name}`} className="mx-auto max-h-96 w-auto object-contain" />
                  <figcaption className="flex items-center justify-between gap-2 border-t border-border bg-card px-3 py-2 text-sm">
                    <span className="min-w-0 truncate">
                      {chosen.name}
                      {chosen.demo && <span className="ml-2 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold text-muted-foreground">Demo</span>}
                    </span>
                    <Button variant="ghost" className="min-h-11 px-2" onClick={clear} disabled={busy} aria-label="Remove image">
                      <X className="h-4 w-4" aria-hidden />
                    </Button>
                  </figcaption>
                  {busy && (
                    <div className="absolute inset-0 flex items-center justify-center bg-background/70" aria-hidden>
                      <Loader2 className="h-10 w-10 animate-spin text-primary motion-reduce:animate-none" />
                    </div>
                  )}
                </figure>
              ) : (
                <div className="flex min-h-40 flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="scan-empty">
                  <ScanText className="h-8 w-8" aria-hidden />
                  No image chosen yet.
                </div>
              )}
            </div>

            <div className="mt-4 flex flex-wrap items-center gap-3">
              <Button ref={scanButton} onClick={() => chosen && void submit(chosen)} disabled={!chosen || busy} aria-describedby={busy ? 'scan-progress' : undefined}>
                {busy ? <Loader2 className="h-4 w-4 animate-spin motion-reduce:animate-none" aria-hidden /> : <ScanText className="h-4 w-4" aria-hidden />}
                Scan Flyer
              </Button>
              <div role="status" aria-live="polite" id="scan-progress" className="text-sm text-muted-foreground">
                {busy ? 'Reading your flyer…' : ''}
              </div>
            </div>
            {busy && (
              <div className="mt-3 h-1.5 w-full overflow-hidden rounded-full bg-muted" aria-hidden>
                <div className="h-full w-full animate-pulse rounded-full bg-primary motion-reduce:animate-none" />
              </div>
            )}
            {problem && (
              <p role="alert" className="mt-3 flex items-start gap-2 text-sm text-destructive" data-testid="scan-error">
                <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                <span>
                  {phase === 'failed' && <span className="font-semibold">{SCAN_FAILED_TITLE}: </span>}
                  {problem}
                </span>
              </p>
            )}
          </section>

          {response && phase === 'result' && <ScanResultPanel response={response} />}
        </div>

        <ScanChallengesList />
      </div>
    </section>
  );
}
