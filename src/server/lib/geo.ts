// Geometry shared by ingestion (venue matching, neighbourhoods) and features that place things.

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres between two points given in degrees. */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

/** Initial compass bearing in degrees (0 = north, 90 = east) from the first point to the second. */
export function bearingDeg(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const y = Math.sin((lng2 - lng1) * rad) * Math.cos(lat2 * rad);
  const x = Math.cos(lat1 * rad) * Math.sin(lat2 * rad) - Math.sin(lat1 * rad) * Math.cos(lat2 * rad) * Math.cos((lng2 - lng1) * rad);
  return ((Math.atan2(y, x) / rad) % 360 + 360) % 360;
}

/** A latitude/longitude box holding every point within `radiusM` of the centre (a prefilter before haversine). */
export function boundingBox(lat: number, lng: number, radiusM: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI);
  const cos = Math.max(Math.cos(lat * (Math.PI / 180)), 1e-6);
  const dLng = Math.min(180, dLat / cos);
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
}

/** A longitude brought into [-180, 180), so points either side of the antimeridian compare correctly. */
export function normalizeLng(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/**
 * Whether a reported position counts as inside a geofence: its distance to the centre, less the
 * position's accuracy (credited up to `maxCreditM`, so a vague fix cannot reach across town),
 * is within the radius.
 */
export function withinGeofence(distanceM: number, radiusM: number, accuracyM: number, maxCreditM: number): boolean {
  const credit = Math.min(Math.max(0, accuracyM), maxCreditM);
  return distanceM - credit <= radiusM;
}

/** Average speed in km/h needed to cover a distance in a time; Infinity for any distance in no time. */
export function speedKmh(distanceM: number, elapsedMs: number): number {
  if (elapsedMs <= 0) return distanceM > 0 ? Infinity : 0;
  return distanceM / 1000 / (elapsedMs / 3_600_000);
}
