ALTER TABLE "events" ADD COLUMN "series_prev_end" timestamp with time zone;--> statement-breakpoint
-- series_prev_end: the latest end among the earlier listed (approved, not gone) occurrences of a
-- row's series, null when none. Lists show a series as one card, its first occurrence still to
-- come; with this column that test is "series_prev_end has passed", read from the row itself.
-- Recomputed here, per statement, for every series a write touched in a way that matters.
CREATE OR REPLACE FUNCTION "refresh_series_prev_end"(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF keys IS NULL OR cardinality(keys) = 0 THEN RETURN; END IF;
  UPDATE "events" e SET "series_prev_end" = s.prev
  FROM (
    SELECT "id", max("end_date") FILTER (WHERE "status" = 'approved') OVER (
      PARTITION BY "series_key" ORDER BY "start_date", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev
    FROM "events" WHERE "series_key" = ANY(keys) AND "gone_at" IS NULL
  ) s
  WHERE e."id" = s."id" AND e."series_prev_end" IS DISTINCT FROM s.prev;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "events_series_prev_end_write"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE keys text[];
BEGIN
  -- The refresh's own UPDATE fires the update trigger again; it changes nothing that matters.
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT "series_key") INTO keys FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT "series_key") INTO keys FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT k) INTO keys FROM (
      SELECT unnest(ARRAY[n."series_key", o."series_key"]) AS k
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (n."status", n."gone_at", n."start_date", n."end_date", n."series_key")
        IS DISTINCT FROM (o."status", o."gone_at", o."start_date", o."end_date", o."series_key")
    ) changed;
  END IF;
  PERFORM "refresh_series_prev_end"(keys);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "events_series_prev_end_insert" AFTER INSERT ON "events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_series_prev_end_write"();--> statement-breakpoint
CREATE TRIGGER "events_series_prev_end_update" AFTER UPDATE ON "events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_series_prev_end_write"();--> statement-breakpoint
CREATE TRIGGER "events_series_prev_end_delete" AFTER DELETE ON "events" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_series_prev_end_write"();--> statement-breakpoint
UPDATE "events" e SET "series_prev_end" = s.prev
FROM (
  SELECT "id", max("end_date") FILTER (WHERE "status" = 'approved') OVER (
    PARTITION BY "series_key" ORDER BY "start_date", "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev
  FROM "events" WHERE "gone_at" IS NULL
) s
WHERE e."id" = s."id" AND s.prev IS NOT NULL;
