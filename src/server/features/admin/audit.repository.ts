import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, errorLog, type AuditRow, type ErrorLogRow } from './admin.table.ts';

/** One admin action as it is written to the append-only audit log. */
export interface AuditEntry {
  actor: { id: string; email: string } | null;
  action: string;
  target?: string | null;
  result: AuditRow['result'];
  detail?: Record<string, unknown>;
  at: Date;
}

/** The audit log and the error log: append and read newest first; nothing else (the table refuses UPDATE and DELETE). */
export function createAuditRepository(db: Db) {
  return {
    async record(e: AuditEntry): Promise<AuditRow> {
      const [row] = await db
        .insert(auditLog)
        .values({ at: e.at, actorId: e.actor?.id ?? null, actorEmail: e.actor?.email ?? 'system', action: e.action, target: e.target ?? null, result: e.result, detail: e.detail ?? {} })
        .returning();
      return row!;
    },
    async listNewest(limit: number): Promise<AuditRow[]> {
      return db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
    },
    async recordError(e: { origin: string; message: string; level?: ErrorLogRow['level']; detail?: Record<string, unknown>; at: Date }): Promise<void> {
      await db.insert(errorLog).values({ at: e.at, origin: e.origin, message: e.message.slice(0, 2000), level: e.level ?? 'error', detail: e.detail ?? {} });
    },
    async listErrors(limit: number): Promise<ErrorLogRow[]> {
      return db.select().from(errorLog).orderBy(desc(errorLog.at), desc(errorLog.id)).limit(limit);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
