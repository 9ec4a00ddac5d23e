import { describe, expect, it } from 'vitest';
import { compassPoint, formatDistance, headingOf, overlayLeft, overlayScale, relativeBearing, sampleEvents } from './ar-view.ts';

describe('AR overlay placement', () => {
  it('places an event by its bearing relative to the heading, and hides it outside the field of view', () => {
    expect(relativeBearing(10, 350)).toBe(20);
    expect(relativeBearing(350, 10)).toBe(-20);
    expect(overlayLeft(90, 90)).toBe(50);
    expect(overlayLeft(105, 90)).toBe(75);
    expect(overlayLeft(75, 90)).toBe(25);
    expect(overlayLeft(180, 90)).toBeNull();
  });

  it('draws nearer events bigger', () => {
    expect(overlayScale(0, 1000)).toBe(1.25);
    expect(overlayScale(1000, 1000)).toBe(0.6);
    expect(overlayScale(100, 1000)).toBeGreaterThan(overlayScale(900, 1000));
  });

  it('reads the compass from webkitCompassHeading or an absolute alpha, else nothing', () => {
    expect(headingOf({ webkitCompassHeading: 120 } as unknown as DeviceOrientationEvent)).toBe(120);
    expect(headingOf({ absolute: true, alpha: 90 } as unknown as DeviceOrientationEvent)).toBe(270);
    expect(headingOf({ absolute: false, alpha: 90 } as unknown as DeviceOrientationEvent)).toBeNull();
  });

  it('formats distances and compass points', () => {
    expect(formatDistance(250)).toBe('250 m');
    expect(formatDistance(1450)).toBe('1.4 km');
    expect(formatDistance(1609.344, 'mi')).toBe('1.0 mi');
    expect(compassPoint(0)).toBe('N');
    expect(compassPoint(95)).toBe('E');
    expect(compassPoint(350)).toBe('N');
  });

  it('offers the spec sample (a farmers market and an art walk), marked as samples', () => {
    const s = sampleEvents(new Date('2026-11-18T20:00:00Z'));
    expect(s.map((e) => e.title)).toEqual(['Farmers Market', 'Art Walk']);
    expect(s.every((e) => e.sample)).toBe(true);
  });
});
