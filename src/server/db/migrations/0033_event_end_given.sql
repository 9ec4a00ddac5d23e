-- Whether an event's end is the source's own or a default duration filled in to list it until then.
-- Null for rows stored before: read as given, and set by the source's next run.
ALTER TABLE "events" ADD COLUMN "end_given" boolean;
