-- A notification about a page of the app (a saved event the source cancelled, moved or listed
-- again) opens it from the bell.
ALTER TABLE "notifications" ADD COLUMN "link" text;