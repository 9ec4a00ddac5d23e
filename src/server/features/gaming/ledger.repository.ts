import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { pointAwards } from './ledger.table.ts';

export interface Award {
  userId: string;
  activityType: string;
  reason: string;
  targetType?: string | null;
  targetId?: string | null;
  eventId?: string | null;
  points: number;
  description?: string;
  /** Unique per award: the same key never pays twice. */
  idempotencyKey: string;
  at: Date;
}

/**
 * Serialises the awards of one user until the transaction ends, so daily caps and badge
 * thresholds are exact under concurrent requests. (Two-key form: its own lock space.)
 */
export async function lockUserAwards(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(4202, hashtext(${userId}))`);
}

/**
 * Appends an award unless its idempotency key was already paid, and keeps the cached total in
 * step in the same transaction. Returns the new row's id and the user's new total, or null when
 * nothing was paid. Call it inside the caller's transaction.
 */
export async function appendAwardRow(tx: Db, a: Award): Promise<{ id: string; total: number } | null> {
  const inserted = await tx
    .insert(pointAwards)
    .values({
      userId: a.userId,
      activityType: a.activityType,
      reason: a.reason,
      targetType: a.targetType ?? null,
      targetId: a.targetId ?? null,
      eventId: a.eventId ?? null,
      points: a.points,
      description: a.description ?? '',
      idempotencyKey: a.idempotencyKey,
      createdAt: a.at,
    })
    .onConflictDoNothing({ target: pointAwards.idempotencyKey })
    .returning({ id: pointAwards.id });
  const id = inserted[0]?.id;
  if (!id) return null;
  const [row] = await tx
    .update(users)
    .set({ points: sql`${users.points} + ${a.points}` })
    .where(eq(users.id, a.userId))
    .returning({ points: users.points });
  return row ? { id, total: row.points } : null;
}

/**
 * Appends an award unless its idempotency key was already paid, and keeps the cached total in
 * step in the same transaction. Returns the user's new total, or null when nothing was paid.
 * Call it inside the caller's transaction.
 */
export async function appendAward(tx: Db, a: Award): Promise<number | null> {
  return (await appendAwardRow(tx, a))?.total ?? null;
}
