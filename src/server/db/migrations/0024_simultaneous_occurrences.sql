-- Occurrences of one series that start at the same moment (one title at one place: the open mic
-- in the main room and in the back room, or a record a source lists twice and an admin is asked
-- about) are each their own card: series_prev_end now looks only at occurrences that start
-- strictly earlier (a RANGE frame excluding the row's peers), where it broke ties by id before
-- and so hid one of them behind "+1 more date" at the very same time.
CREATE OR REPLACE FUNCTION "refresh_series_prev_end"(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF keys IS NULL OR cardinality(keys) = 0 THEN RETURN; END IF;
  UPDATE "events" e SET "series_prev_end" = s.prev
  FROM (
    SELECT "id", max("end_date") FILTER (WHERE "status" = 'approved') OVER (
      PARTITION BY "series_key" ORDER BY "start_date" RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP) AS prev
    FROM "events" WHERE "series_key" = ANY(keys) AND "gone_at" IS NULL
  ) s
  WHERE e."id" = s."id" AND e."series_prev_end" IS DISTINCT FROM s.prev;
END $$;--> statement-breakpoint
-- Every series once more, through the function above rather than a copy of its query.
SELECT "refresh_series_prev_end"(ARRAY(SELECT DISTINCT "series_key" FROM "events" WHERE "gone_at" IS NULL));
