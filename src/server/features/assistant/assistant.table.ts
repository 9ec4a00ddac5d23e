import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/**
 * A changing command the assistant proposed and the admin has not confirmed yet: single use,
 * valid five minutes. Only the token's hash is stored.
 */
export const assistantConfirmations = pgTable('assistant_confirmations', {
  tokenHash: text('token_hash').primaryKey(),
  adminId: uuid('admin_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The typed command, validated again when it runs. */
  command: jsonb('command').$type<{ type: string; args: Record<string, unknown> }>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
