// Signed QR payloads: `tb1.<base64url(JSON)>.<base64url(HMAC-SHA256)>`. The MAC covers the
// version prefix and the exact JSON segment, so altering any byte of what a code says breaks it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { QrKind } from '../../../contract/gaming.ts';

const VERSION = 'tb1';

/** What a code says: kind, target id, issue time, optional expiry and optional owner (seconds). */
export const QrPayload = z.object({
  k: QrKind,
  id: z.string().min(1).max(100),
  iat: z.number().int().nonnegative(),
  exp: z.number().int().nonnegative().optional(),
  /** A user the code belongs to (personal demo codes); others may not scan it. */
  u: z.string().max(100).optional(),
});
export type QrPayload = z.infer<typeof QrPayload>;

const mac = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed).digest();

/** Encodes and signs a payload. */
export function signQrPayload(key: Buffer, p: QrPayload): string {
  const body = Buffer.from(JSON.stringify(p)).toString('base64url');
  const signed = `${VERSION}.${body}`;
  return `${signed}.${mac(key, signed).toString('base64url')}`;
}

/** The payload of a genuine code, or null for anything forged, altered or malformed. */
export function verifyQrPayload(key: Buffer, qrData: string): QrPayload | null {
  const parts = qrData.trim().split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, body, sig] = parts as [string, string, string];
  const given = Buffer.from(sig, 'base64url');
  // Decoding base64url is lenient; demand the canonical spelling so a signature has one form.
  if (given.toString('base64url') !== sig) return null;
  const expected = mac(key, `${VERSION}.${body}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = QrPayload.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
