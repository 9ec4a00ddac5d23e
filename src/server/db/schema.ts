// Every table, gathered for drizzle-kit and for the typed client.
export * from '../features/users/users.table.ts';
export * from '../features/auth/sessions.table.ts';
export * from '../features/events/events.table.ts';
export * from '../features/gaming/ledger.table.ts';
export * from '../features/ingestion/sources.table.ts';
export * from '../features/gaming/badges.table.ts';
export * from '../features/notifications/notifications.table.ts';
export * from '../features/ingestion/duplicates.table.ts';
export * from '../features/scan/scan.table.ts';
export * from '../features/vendors/vendors.table.ts';
export * from '../features/shop/shop.table.ts';
export * from '../features/stories/stories.table.ts';
export * from '../features/admin/admin.table.ts';
export * from '../features/assistant/assistant.table.ts';
