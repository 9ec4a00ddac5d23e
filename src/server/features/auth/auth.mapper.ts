import type { AuthUser } from '../../../contract/auth.ts';
import type { UserRow } from '../users/users.table.ts';

/** A user row as the auth lookup shows it; the password hash never leaves. */
export function toAuthUser(u: UserRow): AuthUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl,
    points: u.points,
    role: u.role,
  };
}
