import QRCode from 'qrcode';
import type { CityConfig } from '../../../contract/city.ts';
import { DEMO_QR, PRINTABLE_QR_KINDS, type QrDemoResponse, type QrIssued, type QrKind, type QrScanResult } from '../../../contract/gaming.ts';
import type { NotificationResponse } from '../../../contract/notifications.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { announceAward, payAward } from '../gaming/awards.ts';
import { fixedPoints, RULES, type ActivityRule } from '../gaming/rules.ts';
import { createNotification } from '../notifications/notifications.service.ts';
import { signQrPayload, verifyQrPayload, type QrPayload } from './qr.codec.ts';
import { createQrRepository, type QrRepository } from './qr.repository.ts';
import { createEventsRepository } from '../events/events.repository.ts';
import { createVendorsRepository } from '../vendors/vendors.repository.ts';
import { createQuestsRepository } from '../quests/quests.repository.ts';
import { completeNodeByQr, nodeAwardKey } from '../quests/quests.service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Check-in opens this long before an event starts and closes when it ends. */
export const CHECK_IN_OPENS_BEFORE_MS = 3600 * 1000;

/** What a code's target is worth and when it may be scanned. */
interface QrTarget {
  kind: QrKind;
  id: string;
  name: string;
  rule: ActivityRule;
  points: number;
  eventId: string | null;
  /** Throws when the target cannot be scanned at this moment. */
  checkWindow?(now: Date): void;
  /** The line under the code on printed SVGs. */
  caption: string;
  /** Notification shown after a successful scan. */
  notice: { title: string; message: string };
  /** The ledger key when the target's own feature pays it by other paths too (quest nodes). */
  awardKey?: (userId: string) => string;
  /** Inside the scan's transaction, before the points: the target's own bookkeeping (may refuse). */
  beforePay?(tx: Db, userId: string, now: Date, timeZone: string): Promise<{ bonus: number; notifications: NotificationResponse[] }>;
}

interface QrKindHandler {
  unknown: string;
  /** `db` is for kinds whose lookups live in their own feature's repository. */
  resolve(repo: QrRepository, id: string, db: Db): Promise<QrTarget | null>;
}

/**
 * The kinds of codes and how each finds its target. A quest node's code completes the node
 * through the quests feature (its completion row and hunt rewards), paying the node's points once.
 */
const KINDS: Record<QrKind, QrKindHandler> = {
  event: {
    unknown: 'Unknown event',
    async resolve(repo, id) {
      if (!UUID.test(id)) return null;
      const e = await repo.findEvent(id);
      if (!e || e.status !== 'approved') return null;
      const points = fixedPoints(RULES.check_in);
      return {
        kind: 'event',
        id,
        name: e.title,
        rule: RULES.check_in,
        points,
        eventId: e.id,
        caption: `Check in · ${points} points`,
        notice: { title: 'Checked In', message: `You checked in at ${e.title}. +${points} points` },
        checkWindow(now) {
          if (now.getTime() < e.startDate.getTime() - CHECK_IN_OPENS_BEFORE_MS) throw invalid('Check-in opens 1 hour before the event starts');
          if (now.getTime() > e.endDate.getTime()) throw invalid('This event has ended; check-in is closed');
        },
      };
    },
  },
  vendor: {
    unknown: 'Unknown vendor',
    async resolve(_repo, id, db) {
      const v = await createVendorsRepository(db).find(id);
      if (!v) return null;
      const points = fixedPoints(RULES.vendor_visit);
      return {
        kind: 'vendor',
        id: v.id,
        name: v.name,
        rule: RULES.vendor_visit,
        points,
        eventId: null,
        caption: `Vendor visit · ${points} points`,
        notice: { title: 'Vendor Visit', message: `You visited ${v.name}. +${points} points` },
      };
    },
  },
  node: {
    unknown: 'Unknown quest node',
    async resolve(_repo, id, db) {
      if (!UUID.test(id)) return null;
      const n = await createQuestsRepository(db).findNode(id);
      if (!n || !n.active) return null;
      return {
        kind: 'node',
        id: n.id,
        name: n.name,
        rule: RULES.quest_node,
        points: n.points,
        eventId: null,
        caption: `Quest node · ${n.points} points`,
        notice: { title: 'Quest Node Complete', message: `You completed ${n.name}. +${n.points} points` },
        // One ledger key for position, photo and code, so a node pays once whichever way it completes.
        awardKey: (userId) => nodeAwardKey(n.id, userId),
        async beforePay(tx, userId, now, timeZone) {
          const done = await completeNodeByQr(tx, userId, n.id, now, timeZone);
          return { bonus: done.huntBonus, notifications: done.notifications };
        },
      };
    },
  },
  demo: {
    unknown: 'Unknown demo code',
    async resolve(_repo, id) {
      if (id !== DEMO_QR.targetId) return null;
      return {
        kind: 'demo',
        id,
        name: DEMO_QR.name,
        rule: RULES.demo_scan,
        points: fixedPoints(RULES.demo_scan),
        eventId: null,
        caption: 'Demo code',
        notice: { title: 'Demo Scan', message: `Demo code scanned. +${fixedPoints(RULES.demo_scan)} points` },
      };
    },
  },
};

const isKind = (k: string): k is QrKind => Object.hasOwn(KINDS, k);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const awardKey = (kind: QrKind, id: string, userId: string) => `qr:${kind}:${id}:${userId}`;
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Puts the code in a printable SVG with the target's name and what it is worth underneath. */
function captioned(svg: string, title: string, caption: string): string {
  const size = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)?.[1] ?? '0';
  const inner = svg.slice(svg.indexOf('>') + 1, svg.lastIndexOf('</svg>'));
  const name = title.length > 42 ? `${title.slice(0, 41)}…` : title;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 470" width="400" height="470">',
    '<rect width="400" height="470" fill="#ffffff"/>',
    `<svg x="0" y="0" width="400" height="400" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">${inner}</svg>`,
    `<text x="200" y="425" text-anchor="middle" font-family="sans-serif" font-size="18" font-weight="bold" fill="#000000">${escapeXml(name)}</text>`,
    `<text x="200" y="452" text-anchor="middle" font-family="sans-serif" font-size="14" fill="#333333">${escapeXml(caption)}</text>`,
    '</svg>',
  ].join('');
}

/** Issuing signed codes (admins, and each user's demo code) and scanning them for points. */
export function createQrService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus; key: Buffer }) {
  const { db, clock, bus, key } = deps;
  const timeZone = deps.city.timeZone;
  const repo = createQrRepository(db);

  async function resolve(kind: string, id: string): Promise<QrTarget> {
    if (!isKind(kind)) throw notFound('Unknown QR code kind');
    const handler = KINDS[kind];
    const target = await handler.resolve(repo, id, db);
    if (!target) throw notFound(handler.unknown);
    return target;
  }

  function issue(target: QrTarget, opts: { expiresAt?: Date; userId?: string }): QrIssued {
    const now = clock.now();
    const payload: QrPayload = { k: target.kind, id: target.id, iat: seconds(now) };
    if (opts.expiresAt) payload.exp = seconds(opts.expiresAt);
    if (opts.userId) payload.u = opts.userId;
    return {
      qrData: signQrPayload(key, payload),
      kind: target.kind,
      targetId: target.id,
      name: target.name,
      points: target.points,
      issuedAt: new Date(payload.iat * 1000).toISOString(),
      expiresAt: opts.expiresAt ? opts.expiresAt.toISOString() : null,
    };
  }

  return {
    /** An admin's printable code for an event, vendor or quest node. */
    async issueForPrint(kind: string, id: string, expiresAt: string | undefined): Promise<QrIssued & { caption: string }> {
      if (!(PRINTABLE_QR_KINDS as readonly string[]).includes(kind)) throw notFound('Unknown QR code kind');
      const at = expiresAt ? new Date(expiresAt) : undefined;
      if (at && at.getTime() <= clock.now().getTime()) throw invalid('expiresAt must be in the future');
      const target = await resolve(kind, id);
      return { ...issue(target, { expiresAt: at }), caption: target.caption };
    },

    async renderPng(issued: QrIssued): Promise<Buffer> {
      return QRCode.toBuffer(issued.qrData, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 512 });
    },

    async renderSvg(issued: QrIssued & { caption: string }): Promise<string> {
      const svg = await QRCode.toString(issued.qrData, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return captioned(svg, issued.name, issued.caption);
    },

    /** The user's personal demo code (worth 15 points once), for the /qr-scanner demo. */
    async demoCode(userId: string): Promise<QrDemoResponse> {
      const target = await resolve('demo', DEMO_QR.targetId);
      const alreadyScanned = await repo.hasAward(awardKey('demo', target.id, userId));
      return { ...issue(target, { userId }), isDemo: true, alreadyScanned };
    },

    /**
     * Verifies a scanned code and pays its points once per user and target: 400 for a forged,
     * altered, expired or badly timed code, 403 for someone else's personal code, 404 for a
     * target that is gone, 409 when this user already scanned it.
     */
    async scan(userId: string, qrData: string): Promise<QrScanResult> {
      const payload = verifyQrPayload(key, qrData);
      if (!payload) throw invalid('Invalid QR code');
      const now = clock.now();
      if (payload.exp !== undefined && now.getTime() >= payload.exp * 1000) throw invalid('This QR code has expired');
      if (payload.u !== undefined && payload.u !== userId) throw forbidden('This QR code was issued to another user');
      if (payload.k === 'demo' && payload.u === undefined) throw invalid('Invalid QR code');
      const target = await resolve(payload.k, payload.id);
      target.checkWindow?.(now);

      const { outcome, notice, extra } = await db.transaction(async (tx) => {
        // A member's check-in and save of one event take turns, so each sees whether the other counted them.
        if (target.kind === 'event' && target.eventId) await createEventsRepository(tx).lockFavorite(userId, target.eventId);
        const extra = (await target.beforePay?.(tx, userId, now, timeZone)) ?? { bonus: 0, notifications: [] };
        const outcome = await payAward(
          tx,
          target.rule,
          {
            userId,
            activityType: target.rule.activityType,
            reason: `qr:${target.kind}`,
            targetType: target.kind,
            targetId: target.id,
            eventId: target.eventId,
            points: target.points,
            description: target.kind === 'event' ? `Checked in at ${target.name}` : `Scanned ${target.name}`,
            idempotencyKey: target.awardKey?.(userId) ?? awardKey(target.kind, target.id, userId),
            at: now,
          },
          timeZone,
        );
        if (outcome.status === 'duplicate') throw conflict('You already scanned this QR code');
        // A check-in is one more person at the event, in the same transaction as its points.
        if (target.kind === 'event' && target.eventId) await createQrRepository(tx).countCheckIn(target.eventId, userId);
        const notice: NotificationResponse = await createNotification(tx, userId, { type: 'success', ...target.notice }, now);
        return { outcome, notice, extra };
      });
      announceAward(bus, userId, outcome, [notice, ...extra.notifications]);
      if (target.kind === 'event') bus.publish('event_update', { id: target.id, action: 'updated' });
      if (target.kind === 'event') bus.publish('buzz', { actorId: userId });
      return {
        type: target.kind,
        targetId: target.id,
        name: target.name,
        points: target.points,
        bonus: extra.bonus,
        isDemo: target.kind === 'demo',
        totalPoints: outcome.total,
        newBadges: outcome.newBadges,
        message: `${target.notice.message}.`,
      };
    },
  };
}

export type QrService = ReturnType<typeof createQrService>;
