import { FLYER_MAX_BYTES } from '../../../contract/scan.ts';
import { fromZonedInput, toZonedInput } from '../../lib/city-time.ts';

/** The image types the scanner takes (spec section 5: image files only). */
export const FLYER_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const FLYER_ACCEPT = FLYER_TYPES.join(',');
/** The built-in demo poster (scripts/make-demo-flyer.ts renders it; Vite serves public/). */
export const DEMO_FLYER_URL = '/assets/demo-flyer.jpg';
/** How long the page waits for the browser's position before scanning without it. */
export const LOCATION_TIMEOUT_MS = 3000;

export const NOT_AN_IMAGE = 'Please choose a JPEG, PNG or WebP image.';
export const TOO_LARGE = 'The image must be at most 8 MB.';

/** Why a chosen file cannot be scanned, or null when it can. */
export function flyerFileProblem(file: File): string | null {
  if (!(FLYER_TYPES as readonly string[]).includes(file.type)) return NOT_AN_IMAGE;
  if (file.size > FLYER_MAX_BYTES) return TOO_LARGE;
  return null;
}

/** The file as a data URL (for the preview) and as bare base64 (for the server, without the prefix). */
export function readFlyer(file: Blob): Promise<{ dataUrl: string; base64: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.onload = () => {
      const dataUrl = String(reader.result);
      const comma = dataUrl.indexOf(',');
      resolve({ dataUrl, base64: comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl });
    };
    reader.readAsDataURL(file);
  });
}

/** The browser's position if it is allowed and quick, else undefined (the server uses the city centre). */
export function currentLocation(timeoutMs = LOCATION_TIMEOUT_MS): Promise<{ latitude: number; longitude: number } | undefined> {
  const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
  if (!geo) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    // The permission prompt does not count towards the API's own timeout: cap the whole wait.
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    const done = (v: { latitude: number; longitude: number } | undefined) => {
      clearTimeout(timer);
      resolve(v);
    };
    try {
      geo.getCurrentPosition(
        (p) => done({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
        () => done(undefined),
        { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: 10 * 60_000 },
      );
    } catch {
      done(undefined);
    }
  });
}

/** An instant as a datetime-local value on the city's clocks ('' when there is none). */
export const toCityInput = (iso: string | null | undefined, timeZone: string): string => (iso ? toZonedInput(iso, timeZone) : '');

/** A datetime-local value read on the city's clocks, as ISO with the zone's offset. */
export const fromCityInput = fromZonedInput;

/** 'Free', '$12', or 'Not found' for what was read off a flyer. */
export function priceLabel(price: number | null | undefined, isFree: boolean | undefined): string {
  if (isFree || price === 0) return 'Free';
  if (price === null || price === undefined) return 'Not found';
  return `$${Number.isInteger(price) ? price : price.toFixed(2)}`;
}
