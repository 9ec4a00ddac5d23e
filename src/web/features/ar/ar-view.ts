// Pure helpers of the AR view: where an event's overlay goes for a heading, how big it is, and
// the spec's sample events shown (labelled) when the real lookup fails.
import type { ArEvent } from '../../../contract/ar.ts';

export const CAMERA_DENIED_AR = 'Camera access denied. Please allow camera permissions for AR features.';
/** Spec section 9: the geolocation fallback after 3 s. */
export const GEO_FALLBACK_MS = 3000;
/** The camera's assumed horizontal field of view, degrees. */
export const FIELD_OF_VIEW = 60;

/** A sample event: same shape as a real one but marked, never recorded or paid. */
export type ShownEvent = Omit<ArEvent, 'id'> & { id: string; sample?: true };

/** Spec section 8: the sample local events (a farmers market and an art walk). */
export function sampleEvents(now: Date): ShownEvent[] {
  const inHours = (h: number) => new Date(now.getTime() + h * 3600_000).toISOString();
  return [
    { id: 'sample-farmers-market', title: 'Farmers Market', time: inHours(20), allDay: false, attendees: 120, category: 'Food', venue: 'Sample venue', lat: 0, lng: 0, distanceM: 250, bearing: 40, sample: true },
    { id: 'sample-art-walk', title: 'Art Walk', time: inHours(30), allDay: false, attendees: 45, category: 'Arts', venue: 'Sample venue', lat: 0, lng: 0, distanceM: 600, bearing: 310, sample: true },
  ];
}

/** Signed angle in -180..180 from the heading to the bearing. */
export function relativeBearing(bearing: number, heading: number): number {
  return ((((bearing - heading) % 360) + 540) % 360) - 180;
}

/** Horizontal position (0..100 %) of an overlay in view, or null when it is outside the field of view. */
export function overlayLeft(bearing: number, heading: number, fov = FIELD_OF_VIEW): number | null {
  const rel = relativeBearing(bearing, heading);
  if (Math.abs(rel) > fov / 2) return null;
  return 50 + (rel / fov) * 100;
}

/** Overlay scale: nearer events are bigger (1.25 at 0 m down to 0.6 at the radius). */
export function overlayScale(distanceM: number, radiusM: number): number {
  const f = Math.min(1, Math.max(0, distanceM / Math.max(radiusM, 1)));
  return Math.round((1.25 - f * 0.65) * 100) / 100;
}

/** "250 m" or "1.4 km" (or miles for a city measured in miles). */
export function formatDistance(m: number, unit: 'mi' | 'km' = 'km'): string {
  if (unit === 'mi') {
    const mi = m / 1609.344;
    return mi < 0.1 ? `${Math.round(m * 3.28084)} ft` : `${mi.toFixed(1)} mi`;
  }
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`;
}

const POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
/** A compass point for a bearing. */
export function compassPoint(bearing: number): string {
  return POINTS[Math.round((((bearing % 360) + 360) % 360) / 45) % 8]!;
}

/** The heading of a DeviceOrientationEvent, degrees clockwise from north, when the device gives one. */
export function headingOf(e: DeviceOrientationEvent & { webkitCompassHeading?: number }): number | null {
  if (typeof e.webkitCompassHeading === 'number' && !Number.isNaN(e.webkitCompassHeading)) return e.webkitCompassHeading;
  if (e.absolute && typeof e.alpha === 'number') return (360 - e.alpha) % 360;
  return null;
}
