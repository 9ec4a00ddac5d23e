-- A counter that moves whenever a write may change what the event counts (list totals, facets,
-- stats) answer: the app caches those aggregates under the counter's value. A sequence, not a
-- row, so concurrent writers never wait on each other for it (nextval takes no lock).
CREATE SEQUENCE IF NOT EXISTS "events_version_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_events_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('events_version_seq');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "events_version_write" AFTER INSERT OR DELETE OR TRUNCATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "bump_events_version"();--> statement-breakpoint
CREATE TRIGGER "events_version_update" AFTER UPDATE OF "status", "start_date", "end_date", "gone_at", "category", "source_type", "title", "description", "venue_name", "neighbourhood", "lat", "lng" ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "bump_events_version"();--> statement-breakpoint
CREATE TRIGGER "event_sources_version_write" AFTER INSERT OR DELETE OR TRUNCATE ON "event_sources" FOR EACH STATEMENT EXECUTE FUNCTION "bump_events_version"();--> statement-breakpoint
CREATE TRIGGER "event_sources_version_update" AFTER UPDATE OF "event_id", "source_type", "name" ON "event_sources" FOR EACH STATEMENT EXECUTE FUNCTION "bump_events_version"();
