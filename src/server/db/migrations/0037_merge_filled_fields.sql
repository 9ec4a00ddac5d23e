-- A merged event's own record may leave blanks (no venue, price, description or end) that a record
-- merged into it gives: the merge fills them on the kept row, so lists, filters and calendars show
-- them too, and keeps the record's own values here (column -> value) for a split to put back.
ALTER TABLE "events" ADD COLUMN "filled" jsonb DEFAULT '{}'::jsonb NOT NULL;