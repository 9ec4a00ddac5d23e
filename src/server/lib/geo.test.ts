import { describe, expect, it } from 'vitest';
import { haversineM, normalizeLng, speedKmh, withinGeofence } from './geo.ts';

describe('haversineM', () => {
  it('gives known distances', () => {
    // Paris to London is about 343.5 km.
    expect(haversineM(48.8566, 2.3522, 51.5074, -0.1278) / 1000).toBeCloseTo(343.5, 0);
    // One degree of latitude is about 111.2 km.
    expect(haversineM(0, 0, 1, 0)).toBeCloseTo(111_195, -1);
    expect(haversineM(45.5, -122.6, 45.5, -122.6)).toBe(0);
  });

  it('is short across the antimeridian, whichever way the longitudes are written', () => {
    const d = haversineM(0, 179.9, 0, -179.9);
    expect(d).toBeCloseTo(22_239, -1);
    expect(haversineM(0, 179.9, 0, 180.1)).toBeCloseTo(d, 3);
    expect(haversineM(-16.5, 179.95, -16.5, -179.95)).toBeLessThan(12_000);
  });
});

describe('normalizeLng', () => {
  it('wraps into [-180, 180)', () => {
    expect(normalizeLng(180.1)).toBeCloseTo(-179.9, 9);
    expect(normalizeLng(-180.5)).toBeCloseTo(179.5, 9);
    expect(normalizeLng(-122.6)).toBeCloseTo(-122.6, 9);
  });
});

describe('withinGeofence', () => {
  it('counts the radius and up to the capped accuracy', () => {
    expect(withinGeofence(70, 75, 0, 50)).toBe(true);
    expect(withinGeofence(120, 75, 45, 50)).toBe(true);
    expect(withinGeofence(125, 75, 50, 50)).toBe(true);
    // A 500 m accuracy is credited only 50 m.
    expect(withinGeofence(130, 75, 500, 50)).toBe(false);
    expect(withinGeofence(76, 75, 0, 50)).toBe(false);
  });
});

describe('speedKmh', () => {
  it('divides distance by time', () => {
    expect(speedKmh(150_000, 3_600_000)).toBeCloseTo(150, 9);
    expect(speedKmh(1000, 0)).toBe(Infinity);
    expect(speedKmh(0, 0)).toBe(0);
  });
});
