import { useCallback, useEffect, useRef } from 'react';

/** How often a camera frame is decoded. */
export const SCAN_INTERVAL_MS = 150;
/** Frames wider than this are scaled down before decoding (plenty for a code filling the view). */
const MAX_DECODE_WIDTH = 800;

export const CAMERA_DENIED = 'Camera access denied. Please allow camera permissions.';
export const CAMERA_MISSING = 'No camera was found on this device.';
export const CAMERA_BUSY = 'The camera is in use by another app. Close it and try again.';
export const CAMERA_UNAVAILABLE = 'This browser cannot use the camera here. Open Townbeat over HTTPS to scan codes.';
export const CAMERA_FAILED = 'The camera could not be started. Please try again.';
export const DECODER_FAILED = 'The QR reader could not be loaded. Check your connection and try again.';

/** The message for a failed getUserMedia (spec section 8: a denied camera). */
export function cameraErrorMessage(err: unknown): string {
  const name = err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err) ? String((err as { name: unknown }).name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return CAMERA_DENIED;
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return CAMERA_MISSING;
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return CAMERA_BUSY;
  return CAMERA_FAILED;
}

type JsQr = typeof import('jsqr').default;

/** What a camera run reports; each is called only while its run is the current one. */
export interface CameraRun {
  /** The camera is on (the preview shows). */
  onActive(): void;
  /** The first code read; the camera is already off. */
  onCode(text: string): void;
  /** The camera or the decoder failed, with the message to show; the camera is already off. */
  onFail(message: string): void;
}

/**
 * The camera and the jsQR decoding loop that the QR scanner and the vendor's pickup scanner share:
 * getUserMedia (back camera), frames scaled to at most 800 px decoded every SCAN_INTERVAL_MS, the
 * decoder fetched as its own chunk while the camera starts. Every start, stop and unmount begins a
 * new run (`newRun`): late answers of an older run are ignored. The camera is off on unmount.
 */
export function useQrCamera() {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const loopRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const run = useRef(0);

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

  /** Ends the current run (its answers are ignored from now) and returns the new run's id. */
  const newRun = useCallback(() => {
    run.current += 1;
    stopCamera();
    return run.current;
  }, [stopCamera]);
  const isCurrent = useCallback((id: number) => id === run.current, []);

  /** Starts the camera and the decoding loop as run `id` (from `newRun`). */
  const startCamera = useCallback(
    async (id: number, on: CameraRun) => {
      const fail = (message: string) => {
        if (id !== run.current) return;
        stopCamera();
        on.onFail(message);
      };
      if (!navigator.mediaDevices?.getUserMedia) return fail(CAMERA_UNAVAILABLE);
      const decoder: Promise<JsQr> = import('jsqr').then((m) => m.default);
      decoder.catch(() => undefined);
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch (err) {
        return fail(cameraErrorMessage(err));
      }
      if (id !== run.current) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      streamRef.current = stream;
      on.onActive();
      const video = videoRef.current;
      if (!video) return fail(CAMERA_FAILED);
      video.srcObject = stream;
      video.play().catch(() => undefined);
      let jsQR: JsQr;
      try {
        jsQR = await decoder;
      } catch {
        return fail(DECODER_FAILED);
      }
      if (id !== run.current) return;
      const canvas = document.createElement('canvas');
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) return fail(CAMERA_FAILED);
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
          stopCamera();
          on.onCode(code.data);
        }
      }, SCAN_INTERVAL_MS);
    },
    [stopCamera],
  );

  return { videoRef, newRun, isCurrent, startCamera, stopCamera };
}
