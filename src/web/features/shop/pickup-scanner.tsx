import { Camera, CameraOff, Loader2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { CAMERA_FAILED, CAMERA_UNAVAILABLE, cameraErrorMessage, DECODER_FAILED, SCAN_INTERVAL_MS } from '../gaming/qr-scanner.tsx';

type JsQr = typeof import('jsqr').default;
/** Frames wider than this are scaled down before decoding, as in the QR scanner. */
const MAX_DECODE_WIDTH = 800;

/**
 * The camera for pickup codes: the same getUserMedia + jsQR loop as the QR scanner, handing the
 * decoded text to `onCode` instead of the points endpoint.
 */
export function PickupScanner({ onCode }: { onCode: (text: string) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const loopRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const run = useRef(0);
  const [phase, setPhase] = useState<'idle' | 'starting' | 'active'>('idle');
  const [error, setError] = useState<string | null>(null);

  const stopCamera = useCallback(() => {
    clearInterval(loopRef.current);
    loopRef.current = undefined;
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
  }, []);

  useEffect(
    () => () => {
      run.current += 1;
      stopCamera();
    },
    [stopCamera],
  );

  const fail = useCallback(
    (id: number, message: string) => {
      if (id !== run.current) return;
      stopCamera();
      setError(message);
      setPhase('idle');
    },
    [stopCamera],
  );

  const start = async () => {
    run.current += 1;
    const id = run.current;
    stopCamera();
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) return fail(id, CAMERA_UNAVAILABLE);
    setPhase('starting');
    const decoder: Promise<JsQr> = import('jsqr').then((m) => m.default);
    decoder.catch(() => undefined);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch (err) {
      return fail(id, cameraErrorMessage(err));
    }
    if (id !== run.current) {
      stream.getTracks().forEach((t) => t.stop());
      return;
    }
    streamRef.current = stream;
    setPhase('active');
    const video = videoRef.current;
    if (!video) return fail(id, CAMERA_FAILED);
    video.srcObject = stream;
    video.play().catch(() => undefined);
    let jsQR: JsQr;
    try {
      jsQR = await decoder;
    } catch {
      return fail(id, DECODER_FAILED);
    }
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return fail(id, CAMERA_FAILED);
    loopRef.current = setInterval(() => {
      if (id !== run.current || video.readyState < 2 || !video.videoWidth) return;
      const scale = Math.min(1, MAX_DECODE_WIDTH / video.videoWidth);
      const w = Math.round(video.videoWidth * scale);
      const h = Math.round(video.videoHeight * scale);
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      ctx.drawImage(video, 0, 0, w, h);
      const code = jsQR(ctx.getImageData(0, 0, w, h).data, w, h, { inversionAttempts: 'dontInvert' });
      if (code?.data) {
        run.current += 1;
        stopCamera();
        setPhase('idle');
        onCode(code.data);
      }
    }, SCAN_INTERVAL_MS);
  };

  const stop = () => {
    run.current += 1;
    stopCamera();
    setPhase('idle');
  };

  const on = phase !== 'idle';
  return (
    <div className="flex flex-col gap-3">
      <div className={`relative aspect-[4/3] w-full max-w-sm overflow-hidden rounded-lg bg-foreground/90 ${on ? '' : 'hidden'}`}>
        <video ref={videoRef} muted playsInline autoPlay aria-label="Camera preview" className="absolute inset-0 h-full w-full object-cover" />
        {phase === 'starting' && (
          <p className="absolute inset-0 flex items-center justify-center gap-2 text-sm font-semibold text-background">
            <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
            Starting the camera…
          </p>
        )}
      </div>
      <div>
        {on ? (
          <Button variant="outline" onClick={stop}>
            <CameraOff className="h-4 w-4" aria-hidden />
            Stop Scanning
          </Button>
        ) : (
          <Button variant="outline" onClick={() => void start()}>
            <Camera className="h-4 w-4" aria-hidden />
            Scan pickup code
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
