import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type * as Leaflet from 'leaflet';
import type { CityConfig } from '../../../contract/city.ts';
import type { EventSummary } from '../../../contract/events.ts';
import type { QuestNode } from '../../../contract/quests.ts';
import { categoryStyle } from '../events/event-card.tsx';
import { boundsOf, gridClusters, labelsThatFit, neighbourhoodCells } from './neighbourhood-cells.ts';

export interface QuestMapProps {
  city: CityConfig;
  tileUrl: string | null;
  nodes: QuestNode[];
  completed: ReadonlySet<string>;
  selectedId: string | null;
  onSelect(node: QuestNode): void;
  position: { lat: number; lng: number; accuracy: number } | null;
  events: EventSummary[] | null;
  /** Admin: click on the map to place a new node. */
  placing: boolean;
  onPlace(lat: number, lng: number): void;
  /** Admin: node markers can be dragged; called with the new place. */
  editable: boolean;
  onMove(node: QuestNode, lat: number, lng: number): void;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const CLUSTER_PX = 56;

/**
 * The quest map: Leaflet (imported only here, so only /map loads it), the city's neighbourhood
 * cells as a background that is always drawn (so markers are never on a blank without tiles),
 * optional tiles from configuration, node markers, the player's position and clustered events.
 */
export function QuestMap(props: QuestMapProps) {
  const el = useRef<HTMLDivElement>(null);
  const [L, setL] = useState<typeof Leaflet | null>(null);
  const map = useRef<Leaflet.Map | null>(null);
  const layers = useRef<{ nodes?: Leaflet.LayerGroup; me?: Leaflet.LayerGroup; events?: Leaflet.LayerGroup }>({});
  const latest = useRef(props);
  // Leaflet's handlers read the newest callbacks without rebuilding the map.
  useLayoutEffect(() => {
    latest.current = props;
  });
  const [tilesFailed, setTilesFailed] = useState(false);
  const [zoom, setZoom] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void import('leaflet').then((mod) => {
      if (!cancelled) setL(mod.default ?? mod);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // The map itself, its background and tiles: once per city and tile URL.
  useEffect(() => {
    if (!L || !el.current) return;
    const { city, tileUrl } = latest.current;
    const m = L.map(el.current, { zoomControl: true, attributionControl: Boolean(tileUrl) });
    map.current = m;
    const box = boundsOf(city.neighbourhoods);
    const background = L.layerGroup().addTo(m);
    for (const cell of neighbourhoodCells(city.neighbourhoods, box)) {
      if (cell.ring.length < 3) continue;
      L.polygon(cell.ring, { color: '#64748b', weight: 1, opacity: 0.7, fillColor: '#94a3b8', fillOpacity: tileUrl ? 0.04 : 0.12, interactive: false }).addTo(background);
    }
    const labels = city.neighbourhoods.map((n) =>
      L.marker([n.lat, n.lng], {
        interactive: false,
        keyboard: false,
        icon: L.divIcon({ className: 'tb-hood-label', html: `<span>${escapeHtml(n.name)}</span>`, iconSize: [0, 0] }),
      }).addTo(background),
    );
    // On a phone the whole city fits in a few hundred pixels: names that would overlap an earlier
    // one (in the city's order) are hidden until zooming in makes room.
    const declutter = () => {
      const spans = labels.map((marker) => marker.getElement()?.firstElementChild as HTMLElement | null | undefined);
      for (const span of spans) if (span) span.style.visibility = '';
      const fits = labelsThatFit(spans.map((span) => span?.getBoundingClientRect() ?? { left: 0, top: 0, right: 0, bottom: 0 }));
      spans.forEach((span, i) => {
        if (span && !fits[i]) span.style.visibility = 'hidden';
      });
    };
    if (tileUrl) {
      const tiles = L.tileLayer(tileUrl, { maxZoom: 19, attribution: '&copy; map tiles' });
      let errors = 0;
      tiles.on('tileerror', () => {
        errors += 1;
        if (errors >= 4) setTilesFailed(true);
      });
      tiles.addTo(m);
    }
    m.fitBounds([
      [box.south, box.west],
      [box.north, box.east],
    ]);
    m.on('click', (e: Leaflet.LeafletMouseEvent) => {
      if (latest.current.placing) latest.current.onPlace(e.latlng.lat, e.latlng.lng);
    });
    m.on('zoomend', () => setZoom(m.getZoom()));
    m.on('zoomend resize', declutter);
    declutter();
    setZoom(m.getZoom());
    layers.current = { nodes: L.layerGroup().addTo(m), me: L.layerGroup().addTo(m), events: L.layerGroup().addTo(m) };
    return () => {
      m.remove();
      map.current = null;
    };
  }, [L, props.city, props.tileUrl]);

  // Node markers.
  const { nodes, completed, selectedId, editable } = props;
  useEffect(() => {
    const group = layers.current.nodes;
    if (!L || !group) return;
    group.clearLayers();
    for (const node of nodes) {
      const done = completed.has(node.id);
      const selected = node.id === selectedId;
      const icon = L.divIcon({
        className: 'tb-node-icon',
        html: `<span class="tb-node${done ? ' tb-node-done' : ''}${selected ? ' tb-node-selected' : ''}${node.active ? '' : ' tb-node-inactive'}" data-testid="quest-marker">${done ? '✓' : node.points}</span>`,
        iconSize: [34, 34],
        iconAnchor: [17, 17],
      });
      const marker = L.marker([node.latitude, node.longitude], { icon, title: `${node.name} (${node.points} points)`, alt: node.name, draggable: editable, keyboard: true, riseOnHover: true });
      marker.on('click', () => latest.current.onSelect(node));
      marker.on('dragend', () => {
        const p = marker.getLatLng();
        latest.current.onMove(node, p.lat, p.lng);
      });
      L.circle([node.latitude, node.longitude], { radius: node.radiusM, color: done ? '#16a34a' : '#7c3aed', weight: 1, fillOpacity: 0.08, interactive: false }).addTo(group);
      marker.addTo(group);
    }
  }, [L, nodes, completed, selectedId, editable]);

  // The player's position.
  const { position } = props;
  useEffect(() => {
    const group = layers.current.me;
    const m = map.current;
    if (!L || !group || !m) return;
    group.clearLayers();
    if (!position) return;
    L.circle([position.lat, position.lng], { radius: Math.max(5, position.accuracy), color: '#2563eb', weight: 1, fillOpacity: 0.12, interactive: false }).addTo(group);
    L.circleMarker([position.lat, position.lng], { radius: 7, color: '#ffffff', weight: 2, fillColor: '#2563eb', fillOpacity: 1 }).bindTooltip('You are here').addTo(group);
    m.setView([position.lat, position.lng], Math.max(m.getZoom(), 15));
  }, [L, position]);

  // Upcoming events, clustered on a screen grid and coloured by category.
  const { events } = props;
  useEffect(() => {
    const group = layers.current.events;
    const m = map.current;
    if (!L || !group || !m) return;
    group.clearLayers();
    const placed = (events ?? []).filter((e): e is EventSummary & { lat: number; lng: number } => e.lat !== null && e.lng !== null);
    for (const cluster of gridClusters(placed, (e) => m.project([e.lat, e.lng], zoom), CLUSTER_PX)) {
      const lat = cluster.reduce((s, e) => s + e.lat, 0) / cluster.length;
      const lng = cluster.reduce((s, e) => s + e.lng, 0) / cluster.length;
      const first = cluster[0]!;
      const color = categoryStyle(first.category).color;
      if (cluster.length === 1) {
        L.marker([lat, lng], {
          title: first.title,
          icon: L.divIcon({ className: 'tb-event-icon', html: `<span class="tb-event" data-testid="event-marker" style="background:${color}"></span>`, iconSize: [18, 18], iconAnchor: [9, 9] }),
        })
          .bindPopup(`<strong>${escapeHtml(first.title)}</strong><br/>${escapeHtml(first.category)}<br/><a href="/events/${encodeURIComponent(first.id)}">View event</a>`)
          .addTo(group);
      } else {
        const cats = [...new Set(cluster.map((e) => e.category))];
        const ring = cats.slice(0, 4).map((c) => categoryStyle(c).color);
        L.marker([lat, lng], {
          title: `${cluster.length} events`,
          icon: L.divIcon({
            className: 'tb-event-icon',
            html: `<span class="tb-cluster" data-testid="event-cluster" style="background:${color};box-shadow:0 0 0 3px ${ring[1] ?? color}">${cluster.length}</span>`,
            iconSize: [32, 32],
            iconAnchor: [16, 16],
          }),
        })
          .on('click', () => m.setView([lat, lng], Math.min(m.getZoom() + 2, 18)))
          .addTo(group);
      }
    }
  }, [L, events, zoom]);

  return (
    // Its own stacking context: Leaflet's panes (z-index 400+) stay under the app's header and dialogs.
    <div className="relative isolate z-0">
      <div ref={el} data-testid="quest-map" className="tb-quest-map h-80 w-full overflow-hidden rounded-xl border border-border sm:h-[28rem]" role="region" aria-label="Quest map" />
      {!L && <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">Loading map…</p>}
      {(tilesFailed || !props.tileUrl) && L && (
        <p className="pointer-events-none absolute bottom-2 left-2 z-[500] rounded bg-card/90 px-2 py-1 text-xs text-muted-foreground">{tilesFailed ? 'Map tiles unavailable: showing neighbourhoods' : 'Neighbourhood map'}</p>
      )}
      {props.placing && <p className="pointer-events-none absolute left-2 top-2 z-[500] rounded bg-primary px-2 py-1 text-xs font-semibold text-primary-foreground">Click the map to place the node</p>}
    </div>
  );
}
