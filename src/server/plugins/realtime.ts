import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { WS_MAX_CONNECTIONS_PER_USER, WS_MAX_MESSAGE_BYTES, type ServerMessage } from '../../contract/realtime.ts';
import type { Database } from '../db/client.ts';
import type { EventBus } from '../lib/event-bus.ts';
import { forbidden } from '../errors.ts';
import { signedIn } from './auth.ts';
import { isSameOrigin } from './same-origin.ts';
import pg from 'pg';

const CHANNEL = 'townbeat_realtime';
const HEARTBEAT_MS = 30_000;
const MAX_INCOMING_PER_10S = 50;

/** A message for one user, or for everyone. */
export interface Envelope {
  to: string | '*';
  msg: ServerMessage;
}

/** Under PostgreSQL's 8000-byte NOTIFY payload limit, with room for the array's brackets. */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * Packs envelopes, in order, into as few JSON-array payloads as the size limit allows. One that
 * cannot fit in a payload on its own is left out and handed to `tooLarge` (PostgreSQL would
 * refuse the whole statement, and with it the messages around it).
 */
export function packEnvelopes(envelopes: readonly Envelope[], maxBytes = MAX_PAYLOAD_BYTES, tooLarge?: (e: Envelope) => void): string[] {
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const e of envelopes) {
    const text = JSON.stringify(e);
    const bytes = Buffer.byteLength(text) + 1;
    if (bytes + 2 > maxBytes) {
      tooLarge?.(e);
      continue;
    }
    if (parts.length && size + bytes > maxBytes) {
      payloads.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(text);
    size += bytes;
  }
  if (parts.length) payloads.push(`[${parts.join(',')}]`);
  return payloads;
}

/** A payload is an array of envelopes (or one envelope, as sent by an older instance). */
export function unpackPayload(payload: string): Envelope[] {
  const value = JSON.parse(payload) as Envelope | Envelope[];
  return Array.isArray(value) ? value : [value];
}

/**
 * Fan-out through PostgreSQL: every instance LISTENs on one channel and NOTIFY carries the
 * messages, so a user connected to any instance gets them. On the embedded database the same
 * LISTEN/NOTIFY works within the process.
 *
 * Messages published in one tick go out together: packed into JSON arrays and sent in one
 * statement, one statement in flight at a time (an ingestion run announcing 30,000 events
 * would otherwise queue 30,000 statements for the connection pool). Order is kept.
 */
async function createFanout(database: Database, deliver: (e: Envelope) => void, onError: (err: unknown) => void) {
  const receive = (payload: string) => {
    for (const e of unpackPayload(payload)) deliver(e);
  };
  const notify = async (payloads: string[]) => {
    const text = 'select pg_notify($1, p) from unnest($2::text[]) as p';
    if (database.kind === 'pglite') await database.pglite!.query(text, [CHANNEL, payloads]);
    else await database.pool!.query(text, [CHANNEL, payloads]);
  };

  let queue: Envelope[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async () => {
    while (queue.length) {
      const batch = queue;
      queue = [];
      const payloads = packEnvelopes(batch, MAX_PAYLOAD_BYTES, (e) => onError(new Error(`realtime message of type ${e.msg.type} is too large to send`)));
      if (payloads.length) await notify(payloads).catch(onError);
    }
    flushing = null;
  };
  const send = (e: Envelope) => {
    queue.push(e);
    // setImmediate: everything published in this tick joins the batch.
    flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(flush);
  };
  const drain = async () => {
    while (flushing) await flushing;
  };

  if (database.kind === 'pglite') {
    const unlisten = await database.pglite!.listen(CHANNEL, receive);
    return {
      send,
      close: async () => {
        await drain();
        await unlisten();
      },
    };
  }
  let client: pg.Client | null = null;
  let closed = false;
  const connect = async () => {
    const c = new pg.Client({ connectionString: database.url });
    c.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) receive(n.payload);
    });
    c.on('error', () => {
      // Reconnect after a dropped listener connection; messages sent meanwhile are lost.
      client = null;
      if (!closed) setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    client = c;
  };
  await connect();
  return {
    send,
    close: async () => {
      await drain();
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}

/** The live channel at /ws: session-cookie auth, Origin check, heartbeats, size and rate limits. */
export async function registerRealtime(app: FastifyInstance, deps: { database: Database; bus: EventBus; publicUrl: string | undefined }) {
  const sockets = new Map<string, Set<WebSocket>>();
  const deliverLocal = (e: Envelope) => {
    const text = JSON.stringify(e.msg);
    const targets = e.to === '*' ? [...sockets.values()].flatMap((s) => [...s]) : [...(sockets.get(e.to) ?? [])];
    for (const ws of targets) if (ws.readyState === ws.OPEN) ws.send(text);
  };
  const fanout = await createFanout(deps.database, deliverLocal, (err) => app.log.warn({ err }, 'realtime fan-out failed'));
  const send = fanout.send;

  const unsubscribe = [
    deps.bus.subscribe('event_update', (d) => send({ to: '*', msg: { type: 'event_update', data: d } })),
    deps.bus.subscribe('gaming_update', (d) => send({ to: d.userId, msg: { type: 'gaming_update', data: { points: d.points } } })),
    deps.bus.subscribe('notification', (d) => send({ to: d.userId, msg: { type: 'notification', data: d.notification } })),
    deps.bus.subscribe('buzz', () => send({ to: '*', msg: { type: 'buzz', data: {} } })),
  ];

  await app.register(websocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });

  const heartbeat = setInterval(() => {
    for (const set of sockets.values())
      for (const ws of set) {
        const alive = (ws as WebSocket & { isAlive?: boolean }).isAlive;
        if (alive === false) {
          ws.terminate();
          continue;
        }
        (ws as WebSocket & { isAlive?: boolean }).isAlive = false;
        ws.ping();
      }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe.forEach((u) => u());
    for (const set of sockets.values()) for (const ws of set) ws.close(1001, 'server shutting down');
    await fanout.close();
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // The Origin check runs first; the access rule's 401 for signed-out upgrades comes after it.
      config: { access: 'user' },
      onRequest: async (req) => {
        const origin = req.headers.origin;
        if (origin && !isSameOrigin(req, origin, deps.publicUrl)) throw forbidden('Cross-site WebSocket refused');
      },
    },
    (socket, req) => {
      const userId = signedIn(req).id;
      let set = sockets.get(userId);
      if (!set) sockets.set(userId, (set = new Set()));
      // Per-user cap: the oldest connection makes way for the newest.
      if (set.size >= WS_MAX_CONNECTIONS_PER_USER) {
        const oldest = set.values().next().value;
        oldest?.close(1008, 'too many connections');
        if (oldest) set.delete(oldest);
      }
      set.add(socket);
      (socket as WebSocket & { isAlive?: boolean }).isAlive = true;
      socket.on('pong', () => {
        (socket as WebSocket & { isAlive?: boolean }).isAlive = true;
      });
      let windowStart = Date.now();
      let count = 0;
      socket.on('message', (raw) => {
        const now = Date.now();
        if (now - windowStart > 10_000) {
          windowStart = now;
          count = 0;
        }
        count += 1;
        if (count > MAX_INCOMING_PER_10S) {
          socket.close(1008, 'rate limit exceeded');
          return;
        }
        try {
          const msg = JSON.parse(String(raw)) as { type?: unknown };
          if (msg.type === 'ping') socket.send(JSON.stringify({ type: 'pong', data: { timestamp: now } } satisfies ServerMessage));
        } catch {
          // Not JSON: ignored, as the client's own messages carry nothing the server needs.
        }
      });
      socket.on('close', () => {
        set.delete(socket);
        if (set.size === 0) sockets.delete(userId);
      });
    },
  );

  return {
    /** Sends a message to one user's sockets on every instance. */
    toUser: (userId: string, msg: ServerMessage) => send({ to: userId, msg }),
    connections: () => [...sockets.values()].reduce((n, s) => n + s.size, 0),
    /** Closes a user's sockets on this instance (their account was disabled: the session is gone). */
    disconnectUser: (userId: string) => {
      for (const ws of sockets.get(userId) ?? []) ws.close(1008, 'signed out');
    },
  };
}
