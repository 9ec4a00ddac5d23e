import { z } from 'zod';
import { QrScanResult } from './gaming.ts';

// The flyer scanner (spec sections 2, 3, 5, 7, 8; issue 13): a photo of a poster becomes an event.

/** Decoded image limits, checked before decoding. */
export const FLYER_MAX_BYTES = 8 * 1024 * 1024;
export const FLYER_MAX_PIXELS = 40_000_000;
/** base64 of FLYER_MAX_BYTES, with room for padding and line breaks; a longer body is 413. */
export const FLYER_MAX_BASE64_CHARS = Math.ceil(FLYER_MAX_BYTES / 3) * 4 + 1024;

/** POST /api/scan/flyer. `location` defaults to the city centre when absent. */
export const FlyerScanBody = z.object({
  imageData: z
    .string({ message: 'imageData must be the image as base64' })
    .min(1, 'imageData must be the image as base64')
    .max(FLYER_MAX_BASE64_CHARS, 'imageData must be at most 8 MB'),
  location: z
    .object({
      latitude: z.number().min(-90, 'location.latitude must be between -90 and 90').max(90, 'location.latitude must be between -90 and 90'),
      longitude: z.number().min(-180, 'location.longitude must be between -180 and 180').max(180, 'location.longitude must be between -180 and 180'),
    })
    .optional(),
});
export type FlyerScanBody = z.infer<typeof FlyerScanBody>;

/** What was read off the flyer, before it became (or matched) an event: the page shows it, editable. */
export const FlyerExtraction = z.object({
  title: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  venue: z.string().nullable(),
  price: z.number().nullable(),
  isFree: z.boolean(),
  url: z.string().nullable(),
  category: z.string().nullable(),
  /** The recognised text, as read. */
  text: z.string(),
  /** OCR confidence, 0 to 1. */
  confidence: z.number(),
});
export type FlyerExtraction = z.infer<typeof FlyerExtraction>;

export const FlyerScanResult = z.object({
  pointsEarned: z.number().int(),
  /** Badges this scan unlocked; `points` is what the badge itself paid (none do: 0, shown as no number). */
  badges: z.array(z.object({ title: z.string(), points: z.number().int() })),
  event: z.object({
    id: z.string(),
    title: z.string(),
    startDate: z.string(),
    venue: z.string(),
    category: z.string(),
    /** False when the flyer is of an event Townbeat already has: the scan is linked to it. */
    isNew: z.boolean(),
    /** Listed (approved), waiting for review, or turned down in review. */
    status: z.enum(['pending', 'approved', 'rejected']),
  }),
  /** Challenges this scan completed, each paid once (their points are included in pointsEarned). */
  challenges: z.array(z.object({ id: z.string(), title: z.string(), points: z.number().int() })).optional(),
});

export type FlyerScanResult = z.infer<typeof FlyerScanResult>;

/** `result` is absent when no title or date could be read ('No Event Detected'). */
export const FlyerScanResponse = z.object({
  success: z.literal(true),
  result: FlyerScanResult.optional(),
  /** What was read, also when no event came of it. */
  extracted: FlyerExtraction.optional(),
  scanId: z.string().optional(),
  /** Why no event came of the scan, or that the daily points limit was reached. */
  message: z.string().optional(),
  /** When the flyer carried a Townbeat QR code: that code was scanned instead (a check-in). */
  qr: QrScanResult.optional(),
});
export type FlyerScanResponse = z.infer<typeof FlyerScanResponse>;

/** PATCH /api/scan/:id: the user corrects what was read before the event is reviewed. */
export const FlyerCorrection = z.object({
  title: z.string().trim().min(1, 'title is required').max(300).optional(),
  startDate: z.iso.datetime({ offset: true, message: 'startDate must be an ISO date-time' }).optional(),
  venue: z.string().trim().max(300).optional(),
  price: z.number().min(0).max(100_000).nullable().optional(),
});

export type FlyerCorrection = z.infer<typeof FlyerCorrection>;

/** PATCH /api/scan/:id answer: the contributed event as it now reads. */
export const FlyerCorrectionResponse = z.object({ success: z.literal(true), event: FlyerScanResult.shape.event });
export type FlyerCorrectionResponse = z.infer<typeof FlyerCorrectionResponse>;

export const ScanHistory = z.object({
  scanCount: z.number().int(),
  totalPointsEarned: z.number().int(),
  /** Badges earned by scanning (a flyer scan or scan challenge unlocked them); `points` as in a scan result. */
  badgesEarned: z.array(z.object({ title: z.string(), points: z.number().int() })),
  stats: z.object({ thisWeek: z.number().int() }),
});
export type ScanHistory = z.infer<typeof ScanHistory>;

export const ScanChallenge = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  reward: z.object({ points: z.number().int() }),
  progress: z.number().int(),
  target: z.number().int(),
  completed: z.boolean(),
});
export type ScanChallenge = z.infer<typeof ScanChallenge>;
export const ScanChallenges = z.array(ScanChallenge);
