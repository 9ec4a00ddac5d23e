import type { AdminUser, AuditEntryResponse } from '../../../contract/admin.ts';
import type { AuditRow } from './admin.table.ts';
import type { UserListRow } from './admin.repository.ts';
import type { pointAwards } from '../gaming/ledger.table.ts';

type PointAwardRow = typeof pointAwards.$inferSelect;

/** A user row for the admin's table: no password hash, subject or calendar secret leaves the server. */
export function toAdminUser({ user, lastActiveAt }: UserListRow): AdminUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    points: user.points,
    disabled: user.disabledAt !== null,
    createdAt: user.createdAt.toISOString(),
    lastActiveAt: lastActiveAt?.toISOString() ?? null,
  };
}

/** One ledger entry with its user's email. */
export function toUserActivity({ award, email }: { award: PointAwardRow; email: string }) {
  return {
    id: award.id,
    userId: award.userId,
    email,
    activityType: award.activityType,
    description: award.description,
    pointsEarned: award.points,
    eventId: award.eventId,
    createdAt: award.createdAt.toISOString(),
  };
}

/** One audit log entry. */
export function toAuditEntry(row: AuditRow): AuditEntryResponse {
  return { id: row.id, at: row.at.toISOString(), actorId: row.actorId, actorEmail: row.actorEmail, action: row.action, target: row.target, result: row.result, detail: row.detail };
}
