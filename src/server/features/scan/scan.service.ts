import { randomUUID } from 'node:crypto';
import type { CityConfig } from '../../../contract/city.ts';
import { BADGES, TIER_THRESHOLDS, type BadgeResponse } from '../../../contract/gaming.ts';
import type {
  FlyerCorrection,
  FlyerCorrectionResponse,
  FlyerExtraction,
  FlyerScanBody,
  FlyerScanResponse,
  FlyerScanResult,
  ScanChallenge,
  ScanHistory,
} from '../../../contract/scan.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, forbidden, notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { haversineM } from '../../lib/geo.ts';
import { announceAward, payAward, type PayOutcome } from '../gaming/awards.ts';
import { fixedPoints, RULES, startOfLocalWeek } from '../gaming/rules.ts';
import { NotContributable, type IngestionService } from '../ingestion/ingestion.service.ts';
import type { CandidateEvent } from '../ingestion/ingestion.types.ts';
import { knownVenues, placeAfterVenueChange } from '../ingestion/pipeline/normalise.ts';
import type { QrService } from '../qr/qr.service.ts';
import { challengeStates, SCAN_CHALLENGES, type ScanChallengeDef, type ScanFacts } from './challenges.ts';
import { extractEvent } from './engine/extract.ts';
import { OcrBusyError, type OcrResult } from './engine/ocr-pool.ts';
import { readFlyerImage } from './flyer-image.ts';
import { createScanRepository, type ScanRepository } from './scan.repository.ts';

/** What the scanner needs of the OCR pool (the real one, or a stand-in in tests). */
export interface OcrReader {
  read(image: Buffer): Promise<OcrResult>;
  close(): Promise<void>;
}

/** How long a client should wait when the OCR queue is full. */
export const OCR_BUSY_RETRY_SECONDS = 10;
/** The known venues handed to the extractor, nearest the scanner first. */
const EXTRACT_VENUES = 500;
const SIGNED_QR = /^tb1\.[\w-]+\.[\w-]+$/;
const WEB_URL = /^https?:\/\/\S+$/i;

const busy = () =>
  new AppError(503, 'unavailable', 'The flyer reader is busy; try again in a few seconds', { 'retry-after': String(OCR_BUSY_RETRY_SECONDS) });

/**
 * A badge as the scan page shows it: its title, and the points it paid. A badge pays none of its
 * own (the ledger has awards, not badge rewards; a tier badge's 50/150/300 is its threshold), so 0.
 */
const badgeLine = (b: Pick<BadgeResponse, 'title'>) => ({ title: b.title, points: 0 });

/** The ledger activities of flyer scanning: a badge one of them unlocked was earned by scanning. */
const SCAN_ACTIVITIES = [RULES.flyer_scan.activityType, RULES.scan_challenge.activityType] as const;

type Extracted = ReturnType<typeof extractEvent>;

function toExtraction(x: Extracted, ocr: OcrResult, category: string | null): FlyerExtraction {
  return {
    title: x.title,
    startDate: x.start ? x.start.toISOString() : null,
    endDate: x.end ? x.end.toISOString() : null,
    venue: x.venueName,
    price: x.price,
    isFree: x.isFree,
    url: x.url,
    category,
    text: ocr.text,
    confidence: ocr.confidence,
  };
}

/** What the scan's transaction did, announced after commit. */
interface Recorded {
  outcomes: PayOutcome[];
  pointsEarned: number;
  badges: { title: string; points: number }[];
  challenges: { id: string; title: string; points: number }[];
  capped: boolean;
  /** The member's scans had come to this event before: its points were paid then. */
  again: boolean;
}

/**
 * The flyer scanner: a photo becomes text (OCR pool), the text an event (extractor), the event a
 * member's contribution (ingestion's `contribute`), and the scan points and challenges (ledger).
 */
export function createScanService(deps: { db: Db; clock: Clock; city: CityConfig; bus: EventBus; ocr: OcrReader; ingestion: IngestionService; qr: QrService }) {
  const { db, clock, city, bus } = deps;
  const repo = createScanRepository(db);
  const timeZone = city.timeZone;

  // One query after another: inside the scan's transaction `r` is one connection, which pg
  // would queue concurrent queries on (deprecated; pg 9 drops it).
  async function facts(r: ScanRepository, userId: string, now: Date): Promise<ScanFacts> {
    // Flyers of different events: one flyer scanned three times is one.
    const thisWeek = await r.countEventsByUser(userId, startOfLocalWeek(now, timeZone));
    const categories = await r.countCategories(userId);
    const newVenues = await r.countNewVenues(userId);
    return { thisWeek, categories, newVenues };
  }

  const keyOf = (userId: string, now: Date) => (c: ScanChallengeDef) => c.key(userId, startOfLocalWeek(now, timeZone), timeZone);

  /**
   * Inside the scan's transaction: the scan row, its points (none past the daily cap) and every
   * challenge it completes, each paid once through the ledger.
   */
  async function record(tx: Db, scan: { id: string; userId: string; eventId: string; isNew: boolean; newVenue: boolean; extraction: FlyerExtraction; ocr: OcrResult; now: Date; title: string }): Promise<Recorded> {
    const r = createScanRepository(tx);
    const { now, userId } = scan;
    await r.insert({
      id: scan.id,
      userId,
      eventId: scan.eventId,
      isNew: scan.isNew,
      newVenue: scan.newVenue,
      extraction: scan.extraction,
      text: scan.ocr.text,
      confidence: scan.ocr.confidence,
      ocrMs: Math.round(scan.ocr.ms),
      createdAt: now,
    });
    const out: Recorded = { outcomes: [], pointsEarned: 0, badges: [], challenges: [], capped: false, again: false };
    const take = (o: PayOutcome) => {
      if (o.status !== 'paid') return false;
      out.outcomes.push(o);
      out.pointsEarned += o.award.points;
      out.badges.push(...o.newBadges.map(badgeLine));
      return true;
    };
    try {
      out.again = !take(
        await payAward(
          tx,
          RULES.flyer_scan,
          {
            userId,
            activityType: RULES.flyer_scan.activityType,
            reason: 'flyer_scan',
            targetType: 'event',
            targetId: scan.eventId,
            eventId: scan.eventId,
            points: fixedPoints(RULES.flyer_scan),
            description: `Scanned a flyer of ${scan.title}`,
            // Once per member and event: scanning the same flyer again (or another copy) pays nothing.
            idempotencyKey: `flyer_scan:${userId}:event:${scan.eventId}`,
            at: now,
          },
          timeZone,
        ),
      );
    } catch (err) {
      // Past the daily cap the scan still counts (history, challenges); it only pays nothing.
      if (!(err instanceof AppError && err.status === 429)) throw err;
      out.capped = true;
    }
    const f = await facts(r, userId, now);
    const key = keyOf(userId, now);
    for (const c of SCAN_CHALLENGES) {
      if (c.progress(f) < c.target) continue;
      const paid = await payAward(
        tx,
        RULES.scan_challenge,
        { userId, activityType: RULES.scan_challenge.activityType, reason: `challenge:${c.id}`, targetType: 'scan_challenge', targetId: c.id, points: c.points, description: `Completed the ${c.title} challenge`, idempotencyKey: key(c), at: now },
        timeZone,
      );
      if (take(paid)) out.challenges.push({ id: c.id, title: c.title, points: c.points });
    }
    return out;
  }

  /** The event part of a result, read after the scan's transaction. */
  async function eventOf(eventId: string, isNew: boolean): Promise<FlyerScanResult['event']> {
    const e = await repo.findEvent(eventId);
    if (!e) throw notFound('Event not found');
    // Merged into another between the match and now (a race): shown as listed, as its page is.
    const status = e.status === 'merged' ? 'approved' : e.status;
    return { id: e.id, title: e.title, startDate: e.startDate.toISOString(), venue: e.venueName, category: e.category, isNew, status };
  }

  /** Known venues nearest the scanner first: the flyer is most likely of a place nearby. */
  async function venuesNear(at: { latitude: number; longitude: number }) {
    const rows = await repo.allVenues();
    const d = (v: { lat: number | null; lng: number | null }) => (v.lat === null || v.lng === null ? Number.POSITIVE_INFINITY : haversineM(at.latitude, at.longitude, v.lat, v.lng));
    return rows
      .map((v) => ({ name: v.name, d: d(v) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, EXTRACT_VENUES)
      .map((v) => ({ name: v.name }));
  }

  async function readImage(bytes: Buffer): Promise<OcrResult> {
    try {
      return await deps.ocr.read(bytes);
    } catch (err) {
      if (err instanceof OcrBusyError) throw busy();
      throw err;
    }
  }

  /** A Townbeat code on the flyer is scanned as such (a check-in); the answer names its event. */
  async function scanSignedCode(userId: string, code: string, extracted: FlyerExtraction): Promise<FlyerScanResponse> {
    const qr = await deps.qr.scan(userId, code);
    const result: FlyerScanResult | undefined =
      qr.type === 'event' ? { pointsEarned: qr.points, badges: qr.newBadges.map(badgeLine), event: await eventOf(qr.targetId, false) } : undefined;
    return { success: true, qr, extracted, ...(result ? { result } : {}) };
  }

  /** Stores the scan of an event (created or matched) and answers with what it earned. */
  async function finish(
    userId: string,
    scanId: string,
    contributed: { eventId: string; isNew: boolean; extra: Recorded | undefined },
    extraction: FlyerExtraction,
  ): Promise<FlyerScanResponse> {
    const recorded = contributed.extra!;
    for (const o of recorded.outcomes) announceAward(bus, userId, o);
    if (contributed.isNew) bus.publish('event_update', { id: contributed.eventId, action: 'created' });
    bus.publish('buzz', { actorId: userId });
    const event = await eventOf(contributed.eventId, contributed.isNew);
    return {
      success: true,
      scanId,
      extracted: { ...extraction, category: event.category },
      result: { pointsEarned: recorded.pointsEarned, badges: recorded.badges, event, challenges: recorded.challenges },
      ...(recorded.capped
        ? { message: `Daily limit reached: flyer scans earn points ${RULES.flyer_scan.dailyCap} times a day` }
        : recorded.again
          ? { message: 'You scanned a flyer of this event before: it earns points once' }
          : {}),
    };
  }

  return {
    /**
     * Reads a flyer and answers with what it said and, when a title and a start were read, the
     * event it came to (a new pending contribution, or an event already listed) and the points.
     */
    async scanFlyer(userId: string, body: FlyerScanBody): Promise<FlyerScanResponse> {
      const image = await readFlyerImage(body.imageData);
      const at = body.location ?? { latitude: city.center.lat, longitude: city.center.lng };
      const ocr = await readImage(image.bytes);
      const now = clock.now();
      const x = extractEvent(ocr.text, { now, timeZone, venues: await venuesNear(at) });
      const extraction = toExtraction(x, ocr, null);
      const scanId = randomUUID();
      const recordFor = (title: string, newVenue: boolean) => (tx: Db, r: { eventId: string; isNew: boolean }) =>
        record(tx, { id: scanId, userId, eventId: r.eventId, isNew: r.isNew, newVenue: newVenue && r.isNew, extraction, ocr, now, title });

      const code = ocr.qr?.trim() ?? '';
      if (SIGNED_QR.test(code)) return scanSignedCode(userId, code, extraction);
      if (WEB_URL.test(code)) {
        // The code's page (schema.org Event data or an .ics) says more than the photo's text;
        // when it has no event, the text is read instead.
        const imported = await deps.ingestion.importFromUrl(code, userId).catch((err: unknown) => {
          if (err instanceof AppError && err.status === 400) return null;
          throw err;
        });
        if (imported) {
          const extra = await db.transaction((tx) => recordFor(x.title ?? 'an event', false)(tx, { eventId: imported.eventId, isNew: imported.isNew }));
          // What the result shows (and a correction starts from) is the event as stored from the
          // code's page, not the photo's words it replaced.
          const e = await repo.findEvent(imported.eventId);
          const stored = e ? { title: e.title, startDate: e.startDate.toISOString(), endDate: e.endDate.toISOString(), venue: e.venueName || null, price: e.price === null ? null : Number(e.price), isFree: e.isFree } : {};
          return finish(userId, scanId, { eventId: imported.eventId, isNew: imported.isNew, extra }, { ...extraction, ...stored, url: extraction.url ?? code });
        }
      }

      if (!x.title || !x.start) return { success: true, extracted: extraction, message: 'No event title or date could be read on this flyer' };
      const candidate: CandidateEvent = {
        externalId: `flyer:${scanId}`,
        title: x.title,
        description: x.description ?? '',
        url: x.url ?? undefined,
        start: x.start,
        end: x.end ?? undefined,
        allDay: x.allDay,
        timeZone,
        venueName: x.venueName ?? undefined,
        price: x.price,
        priceMax: x.priceMax,
        priceNote: x.priceNote,
        isFree: x.isFree,
      };
      const newVenue = x.venueName ? !(await repo.isKnownVenue(x.venueName)) : false;
      try {
        const contributed = await deps.ingestion.contribute(candidate, userId, { url: x.url ?? '', name: 'Scanned from a flyer' }, recordFor(x.title, newVenue));
        return finish(userId, scanId, contributed, extraction);
      } catch (err) {
        if (err instanceof NotContributable) return { success: true, extracted: extraction, message: err.message };
        throw err;
      }
    },

    /** The owner corrects what was read while the event the scan created waits for review. */
    async correct(userId: string, scanId: string, c: FlyerCorrection): Promise<FlyerCorrectionResponse> {
      const scan = await repo.findById(scanId);
      if (!scan) throw notFound('Scan not found');
      if (scan.userId !== userId) throw forbidden('This scan belongs to another user');
      if (!scan.isNew) throw conflict('This scan matched an event already listed; it cannot be corrected');
      const e = await repo.findEvent(scan.eventId);
      if (!e) throw notFound('Event not found');
      if (e.status !== 'pending') throw conflict('The event has been reviewed; it can no longer be corrected');
      const start = c.startDate ? new Date(c.startDate) : e.startDate;
      const end = new Date(start.getTime() + (e.endDate.getTime() - e.startDate.getTime()));
      const venue = c.venue ?? e.venueName;
      // The corrected venue places the event as ingestion placed the scan (neighbourhood, position).
      const place = c.venue !== undefined ? placeAfterVenueChange(city, knownVenues(await repo.allVenues()), { ...e, neighbourhoodSet: false }, c.venue) : {};
      await db.transaction(async (tx) => {
        const r = createScanRepository(tx);
        await r.updateEvent(e.id, {
          ...(c.title !== undefined ? { title: c.title } : {}),
          ...(c.startDate !== undefined ? { startDate: start, endDate: end } : {}),
          ...(c.venue !== undefined ? { venueName: c.venue, venueId: c.venue ? await r.findVenueId(c.venue) : null, ...place } : {}),
          ...(c.price !== undefined ? { price: c.price, priceMax: null, isFree: c.price === 0 } : {}),
          updatedAt: clock.now(),
        });
        await r.updateExtraction(scan.id, {
          ...scan.extraction,
          ...(c.title !== undefined ? { title: c.title } : {}),
          ...(c.startDate !== undefined ? { startDate: start.toISOString(), endDate: end.toISOString() } : {}),
          ...(c.venue !== undefined ? { venue: venue } : {}),
          ...(c.price !== undefined ? { price: c.price, isFree: c.price === 0 } : {}),
        });
      });
      bus.publish('event_update', { id: e.id, action: 'updated' });
      return { success: true, event: await eventOf(e.id, true) };
    },

    /**
     * The user's scanning figures, from their scans and the ledger. Badges are the ones scanning
     * earned: those whose unlocking award was a flyer scan or a scan challenge, not check-ins etc.
     */
    async history(userId: string): Promise<ScanHistory> {
      const now = clock.now();
      const [scanCount, thisWeek, totalPointsEarned, badges] = await Promise.all([
        repo.countByUser(userId),
        // Flyers of different events, as Flyer Hunter counts them.
        repo.countEventsByUser(userId, startOfLocalWeek(now, timeZone)),
        repo.sumPoints(userId, SCAN_ACTIVITIES),
        repo.findBadgesEarnedBy(userId, SCAN_ACTIVITIES),
      ]);
      // In the order earned; badges earned by one award, lowest tier first.
      const rank = (t: string) => (Object.hasOwn(TIER_THRESHOLDS, t) ? TIER_THRESHOLDS[t as keyof typeof TIER_THRESHOLDS] : 0);
      const badgesEarned = badges
        .filter((b) => Object.hasOwn(BADGES, b.badgeType))
        .sort((a, b) => a.earnedAt.getTime() - b.earnedAt.getTime() || rank(a.badgeType) - rank(b.badgeType))
        .map((b) => badgeLine(BADGES[b.badgeType as keyof typeof BADGES]));
      return { scanCount, totalPointsEarned, badgesEarned, stats: { thisWeek } };
    },

    /** The challenges with the user's progress; a met one is paid when the scan that met it lands. */
    async challenges(userId: string): Promise<ScanChallenge[]> {
      const now = clock.now();
      const key = keyOf(userId, now);
      const [f, paid] = await Promise.all([facts(repo, userId, now), repo.paidKeys(SCAN_CHALLENGES.map(key))]);
      return challengeStates(f, paid, key);
    },
  };
}

export type ScanService = ReturnType<typeof createScanService>;
