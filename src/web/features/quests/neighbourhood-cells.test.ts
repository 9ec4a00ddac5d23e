import { describe, expect, it } from 'vitest';
import { boundsOf, gridClusters, labelsThatFit, neighbourhoodCells } from './neighbourhood-cells.ts';

describe('neighbourhoodCells', () => {
  it('splits the box between the sites, each cell holding its own site', () => {
    const sites = [
      { name: 'West', lat: 45.5, lng: -122.7 },
      { name: 'East', lat: 45.5, lng: -122.6 },
    ];
    const box = boundsOf(sites, 0.05);
    const cells = neighbourhoodCells(sites, box);
    expect(cells.map((c) => c.name)).toEqual(['West', 'East']);
    const west = cells[0]!.ring.map(([, lng]) => lng);
    const east = cells[1]!.ring.map(([, lng]) => lng);
    // The border is halfway between them.
    expect(Math.max(...west)).toBeCloseTo(-122.65, 6);
    expect(Math.min(...east)).toBeCloseTo(-122.65, 6);
    expect(Math.min(...west)).toBeCloseTo(box.west, 6);
  });

  it('gives a single site the whole box', () => {
    const box = { south: 1, north: 2, west: 3, east: 4 };
    expect(neighbourhoodCells([{ name: 'Only', lat: 1.5, lng: 3.5 }], box)[0]!.ring).toHaveLength(4);
  });
});

describe('gridClusters', () => {
  it('groups points falling in the same screen cell', () => {
    const pts = [{ x: 1, y: 1 }, { x: 10, y: 20 }, { x: 100, y: 5 }];
    expect(gridClusters(pts, (p) => p, 56).map((c) => c.length)).toEqual([2, 1]);
  });
});

describe('labelsThatFit', () => {
  const box = (left: number, top: number, width = 60, height = 14) => ({ left, top, right: left + width, bottom: top + height });
  it('shows labels in order, leaving out each that would overlap one already shown', () => {
    // b overlaps a; c is clear of a but overlaps b (hidden, so c shows); d sits just past a's gap.
    const a = box(0, 0);
    const b = box(40, 5);
    const c = box(90, 10);
    const d = box(0, 17);
    const e = box(0, 15);
    expect(labelsThatFit([a, b, c, d, e])).toEqual([true, false, true, true, false]);
  });
  it('shows every label when none overlaps', () => {
    expect(labelsThatFit([box(0, 0), box(100, 0), box(0, 100)])).toEqual([true, true, true]);
  });
});
