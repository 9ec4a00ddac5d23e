import { Camera, CameraOff, CheckCircle2, Loader2, QrCode, ScanLine, Sparkles } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEMO_QR, type QrScanResult } from '../../../contract/gaming.ts';
import { Button } from '../../components/ui/button.tsx';
import { useQrCamera } from '../../lib/qr-camera.ts';
import { formatPoints } from './gaming-format.ts';
import { qrScanErrorMessage, useQrDemo, useQrScan } from './gaming.queries.ts';

// The camera's messages, shared with the vendor's pickup scanner (lib/qr-camera.ts).
export { CAMERA_BUSY, CAMERA_DENIED, CAMERA_FAILED, CAMERA_MISSING, CAMERA_UNAVAILABLE, cameraErrorMessage, DECODER_FAILED, SCAN_INTERVAL_MS } from '../../lib/qr-camera.ts';

/**
 * idle → starting → active (camera on, decoding) → processing (asking the server) → success, or
 * back to idle with an error message. The demo runs idle → demo (2 s 'Scanning…') → processing.
 */
export type ScanPhase = 'idle' | 'starting' | 'active' | 'demo' | 'processing' | 'success';

/** The scanner's state machine: the camera and its decoding loop (useQrCamera), the demo and the server call. */
export function useQrScanner() {
  const { videoRef, newRun, isCurrent, startCamera, stopCamera } = useQrCamera();
  const demoTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [phase, setPhase] = useState<ScanPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<QrScanResult | null>(null);
  const scan = useQrScan();
  const demo = useQrDemo();
  const { mutateAsync: scanAsync } = scan;
  const { mutateAsync: demoAsync } = demo;

  // Every start, stop and reset begins a new run (the camera's and the demo's late answers of an
  // older one are ignored); closing the modal or leaving the page turns the camera off.
  const begin = useCallback(() => {
    clearTimeout(demoTimer.current);
    return newRun();
  }, [newRun]);
  useEffect(() => () => clearTimeout(demoTimer.current), []);

  const fail = useCallback(
    (id: number, message: string) => {
      if (!isCurrent(id)) return;
      clearTimeout(demoTimer.current);
      stopCamera();
      setError(message);
      setPhase('idle');
    },
    [isCurrent, stopCamera],
  );

  const submit = useCallback(
    async (id: number, qrData: string) => {
      setPhase('processing');
      try {
        const res = await scanAsync(qrData);
        if (!isCurrent(id)) return;
        setResult(res);
        setPhase('success');
      } catch (err) {
        fail(id, qrScanErrorMessage(err));
      }
    },
    [scanAsync, fail, isCurrent],
  );

  const start = useCallback(async () => {
    const id = begin();
    setError(null);
    setResult(null);
    setPhase('starting');
    await startCamera(id, {
      onActive: () => setPhase('active'),
      onCode: (text) => void submit(id, text),
      onFail: (message) => fail(id, message),
    });
  }, [begin, fail, startCamera, submit]);

  const stop = useCallback(() => {
    begin();
    setPhase('idle');
  }, [begin]);

  const reset = useCallback(() => {
    begin();
    setError(null);
    setResult(null);
    setPhase('idle');
  }, [begin]);

  /** The demo: a personal demo code from the server, 2 s of simulated scanning, then the real check. */
  const runDemo = useCallback(async () => {
    const id = begin();
    setError(null);
    setResult(null);
    setPhase('demo');
    const wait = new Promise<void>((resolve) => {
      demoTimer.current = setTimeout(resolve, DEMO_QR.scanMs);
    });
    try {
      const [code] = await Promise.all([demoAsync(), wait]);
      if (!isCurrent(id)) return;
      await submit(id, code.qrData);
    } catch (err) {
      fail(id, qrScanErrorMessage(err));
    }
  }, [begin, demoAsync, fail, isCurrent, submit]);

  return { videoRef, phase, error, result, start, stop, reset, runDemo };
}

function ResultCard({ result, onAgain, onClose }: { result: QrScanResult; onAgain: () => void; onClose?: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-success/40 bg-success-soft p-6 text-center" data-testid="qr-result">
      <CheckCircle2 className="h-12 w-12 text-success" aria-hidden />
      <h3 ref={heading} tabIndex={-1} className="text-xl font-bold text-success outline-none">
        Scan Successful!
      </h3>
      <p className="font-semibold">
        {result.name}
        {result.isDemo && <span className="ml-2 rounded-full bg-muted px-2 py-0.5 align-middle text-xs font-semibold text-muted-foreground">Demo</span>}
      </p>
      <dl className="grid w-full max-w-xs grid-cols-3 gap-2 text-sm">
        <div className="rounded-lg bg-card p-2">
          <dt className="text-xs text-muted-foreground">Points</dt>
          <dd className="text-lg font-bold text-accent" data-testid="qr-points">
            +{formatPoints(result.points)}
          </dd>
        </div>
        <div className="rounded-lg bg-card p-2">
          <dt className="text-xs text-muted-foreground">Bonus</dt>
          <dd className="text-lg font-bold text-accent" data-testid="qr-bonus">
            +{formatPoints(result.bonus)}
          </dd>
        </div>
        <div className="rounded-lg bg-card p-2">
          <dt className="text-xs text-muted-foreground">Total</dt>
          <dd className="text-lg font-bold" data-testid="qr-total">
            {formatPoints(result.totalPoints)}
          </dd>
        </div>
      </dl>
      {result.newBadges.length > 0 && (
        <p className="text-sm font-semibold">
          New badge{result.newBadges.length > 1 ? 's' : ''}: {result.newBadges.map((b) => b.title).join(', ')}
        </p>
      )}
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button onClick={onAgain}>
          <ScanLine className="h-4 w-4" aria-hidden />
          Scan Another
        </Button>
        {onClose && (
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        )}
      </div>
    </div>
  );
}

const STATUS: Record<ScanPhase, string> = {
  idle: '',
  starting: 'Starting the camera…',
  active: 'Camera on. Looking for a QR code…',
  demo: 'Scanning…',
  processing: 'Checking your code…',
  success: 'Scan Successful!',
};

/**
 * The live camera scanner shared by the 'Scan QR' modal and the /qr-scanner page: Start/Stop
 * Scanning, decoding frames with jsQR, then the server's verdict. `demo` adds the labelled demo.
 */
export function QrScanner({ onClose, demo = false }: { onClose?: () => void; demo?: boolean }) {
  const { videoRef, phase, error, result, start, stop, reset, runDemo } = useQrScanner();
  const cameraOn = phase === 'starting' || phase === 'active';
  const busy = phase === 'processing' || phase === 'demo';

  return (
    <div className="flex flex-col gap-4" data-phase={phase}>
      <p className="sr-only" role="status" aria-live="polite">
        {error ?? STATUS[phase]}
      </p>

      {phase === 'success' && result ? (
        <ResultCard result={result} onAgain={reset} onClose={onClose} />
      ) : (
        <>
          <div className="relative flex aspect-[4/3] w-full items-center justify-center overflow-hidden rounded-lg bg-foreground/90 text-background">
            <video ref={videoRef} muted playsInline autoPlay aria-label="Camera preview" className={`absolute inset-0 h-full w-full object-cover ${cameraOn ? '' : 'hidden'}`} />
            {cameraOn && (
              <div className="pointer-events-none absolute inset-[12%] rounded-xl border-4 border-white/80 shadow-[0_0_0_999px_rgba(0,0,0,0.35)]" aria-hidden />
            )}
            {phase === 'starting' && (
              <p className="relative flex items-center gap-2 text-sm font-semibold">
                <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
                Starting the camera…
              </p>
            )}
            {phase === 'idle' && (
              <div className="relative flex flex-col items-center gap-2 p-6 text-center">
                <QrCode className="h-14 w-14 opacity-80" aria-hidden />
                <p className="text-sm">Point your camera at a Townbeat QR code at an event, vendor booth or quest stop.</p>
              </div>
            )}
            {phase === 'demo' && (
              <div className="relative flex flex-col items-center gap-2 p-6 text-center" data-testid="qr-demo-scanning">
                <ScanLine className="h-14 w-14 animate-pulse" aria-hidden />
                <p className="text-lg font-semibold">Scanning…</p>
                <p className="text-xs opacity-80">Demo: no camera needed</p>
              </div>
            )}
            {phase === 'processing' && (
              <p className="relative flex items-center gap-2 text-sm font-semibold">
                <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
                Checking your code…
              </p>
            )}
          </div>

          {error && (
            <p role="alert" className="flex items-start gap-2 rounded-lg border border-destructive/50 bg-card p-3 text-sm text-destructive" data-testid="qr-error">
              <CameraOff className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              {error}
            </p>
          )}

          <div className="flex flex-wrap items-center gap-2">
            {cameraOn ? (
              <Button variant="outline" onClick={stop}>
                <CameraOff className="h-4 w-4" aria-hidden />
                Stop Scanning
              </Button>
            ) : (
              <Button onClick={() => void start()} disabled={busy}>
                <Camera className="h-4 w-4" aria-hidden />
                Start Scanning
              </Button>
            )}
          </div>

          {demo && (
            <div className="rounded-lg border border-dashed border-border bg-card p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <p className="flex items-center gap-2 text-sm font-semibold">
                    <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-accent">Demo</span>
                    No code to hand?
                  </p>
                  <p className="mt-1 text-sm text-muted-foreground">
                    Try a sample event code issued just for you, worth {DEMO_QR.points} points once. It simulates a {DEMO_QR.scanMs / 1000}-second scan.
                  </p>
                </div>
                <Button variant="outline" onClick={() => void runDemo()} disabled={busy || cameraOn}>
                  <Sparkles className="h-4 w-4" aria-hidden />
                  Try a demo code
                </Button>
              </div>
            </div>
          )}
        </>
      )}
    </div>
  );
}
