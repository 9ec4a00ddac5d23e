import { Camera, CameraOff, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useQrCamera } from '../../lib/qr-camera.ts';

/**
 * The camera for pickup codes: the QR scanner's camera and decoding loop (useQrCamera), handing
 * the decoded text to `onCode` instead of the points endpoint.
 */
export function PickupScanner({ onCode }: { onCode: (text: string) => void }) {
  const { videoRef, newRun, startCamera } = useQrCamera();
  const [phase, setPhase] = useState<'idle' | 'starting' | 'active'>('idle');
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    const id = newRun();
    setError(null);
    setPhase('starting');
    await startCamera(id, {
      onActive: () => setPhase('active'),
      onCode: (text) => {
        newRun();
        setPhase('idle');
        onCode(text);
      },
      onFail: (message) => {
        setError(message);
        setPhase('idle');
      },
    });
  };

  const stop = () => {
    newRun();
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
