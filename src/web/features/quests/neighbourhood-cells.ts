// The city configuration has only a name and centre per neighbourhood, so the background drawn
// when there are no map tiles is their Voronoi cells, clipped to a box around the city.

export interface Site {
  name: string;
  lat: number;
  lng: number;
}
export type LatLng = [number, number];

/** A box around the sites (and any extra points) with a margin, in degrees. */
export function boundsOf(points: { lat: number; lng: number }[], marginDeg = 0.02): { south: number; west: number; north: number; east: number } {
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  return { south: Math.min(...lats) - marginDeg, north: Math.max(...lats) + marginDeg, west: Math.min(...lngs) - marginDeg, east: Math.max(...lngs) + marginDeg };
}

/** Keeps the part of a polygon on the side of the half-plane a·p <= b (Sutherland–Hodgman). */
function clip(poly: [number, number][], a: [number, number], b: number): [number, number][] {
  const out: [number, number][] = [];
  const inside = (p: [number, number]) => a[0] * p[0] + a[1] * p[1] <= b + 1e-12;
  for (let i = 0; i < poly.length; i++) {
    const cur = poly[i]!;
    const prev = poly[(i + poly.length - 1) % poly.length]!;
    const ci = inside(cur);
    const pi = inside(prev);
    if (ci !== pi) {
      const dx = cur[0] - prev[0];
      const dy = cur[1] - prev[1];
      const t = (b - a[0] * prev[0] - a[1] * prev[1]) / (a[0] * dx + a[1] * dy);
      out.push([prev[0] + t * dx, prev[1] + t * dy]);
    }
    if (ci) out.push(cur);
  }
  return out;
}

/**
 * The Voronoi cell of each site inside the box, as [lat, lng] rings. Longitudes are scaled by
 * cos(latitude) first, so cells are fair on the ground rather than in degrees.
 */
export function neighbourhoodCells(sites: Site[], box: { south: number; west: number; north: number; east: number }): { name: string; ring: LatLng[] }[] {
  if (sites.length === 0) return [];
  const k = Math.cos(((box.south + box.north) / 2) * (Math.PI / 180));
  const xy = sites.map((s) => [s.lng * k, s.lat] as [number, number]);
  const frame: [number, number][] = [
    [box.west * k, box.south],
    [box.east * k, box.south],
    [box.east * k, box.north],
    [box.west * k, box.north],
  ];
  return sites.map((s, i) => {
    let poly = frame;
    const p = xy[i]!;
    for (let j = 0; j < xy.length && poly.length > 0; j++) {
      if (j === i) continue;
      const q = xy[j]!;
      // Points closer to p than to q: (q - p)·x <= (|q|² - |p|²) / 2.
      const a: [number, number] = [q[0] - p[0], q[1] - p[1]];
      if (a[0] === 0 && a[1] === 0) continue;
      poly = clip(poly, a, (q[0] * q[0] + q[1] * q[1] - p[0] * p[0] - p[1] * p[1]) / 2);
    }
    return { name: s.name, ring: poly.map(([x, y]) => [y, x / k] as LatLng) };
  });
}

/** Groups points by screen cells of `cellPx`; each group's centre is its mean position. */
export function gridClusters<T>(items: T[], project: (item: T) => { x: number; y: number }, cellPx: number): T[][] {
  const cells = new Map<string, T[]>();
  for (const item of items) {
    const { x, y } = project(item);
    const key = `${Math.floor(x / cellPx)}:${Math.floor(y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) cell.push(item);
    else cells.set(key, [item]);
  }
  return [...cells.values()];
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Which labels to show so that none overlaps another (with `gapPx` around each): in the order
 * given, a label is shown when it clears every label already shown. Zoomed in, they all fit.
 */
export function labelsThatFit(boxes: Box[], gapPx = 3): boolean[] {
  const shown: Box[] = [];
  return boxes.map((b) => {
    const clear = shown.every((s) => b.right + gapPx <= s.left || b.left >= s.right + gapPx || b.bottom + gapPx <= s.top || b.top >= s.bottom + gapPx);
    if (clear) shown.push(b);
    return clear;
  });
}
