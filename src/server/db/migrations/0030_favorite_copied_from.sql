-- A save a merge copied to the event it kept remembers the record it came from, so splitting the
-- merge gives it back rather than leave the member with two saves and the kept event with an
-- attendee nobody made. Saves copied before this are found as they were made: a save of a record
-- merged into the event, by the same member, at the same instant.
ALTER TABLE "favorites" ADD COLUMN "copied_from" uuid;--> statement-breakpoint
UPDATE "favorites" f SET "copied_from" = c."event_id"
FROM "favorites" c JOIN "events" e ON e."id" = c."event_id"
WHERE e."merged_into" = f."event_id" AND c."user_id" = f."user_id" AND c."created_at" = f."created_at";
