-- Why a source's last stored run kept listed events it did not meet: the card offers to remove a
-- sudden drop at once, never a partial read's (those may simply be unread). Existing sources take
-- it from the notes of their last stored run.
ALTER TABLE "sources" ADD COLUMN "last_run_held_reason" text;--> statement-breakpoint
UPDATE "sources" s SET "last_run_held_reason" = (
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(r.notes) n WHERE n->>'kind' = 'kept' AND n->>'reason' LIKE 'were missing from this run, most of what the source lists%') THEN 'sudden-drop'
    ELSE 'partial-read'
  END
  FROM "source_runs" r WHERE r.source_id = s.id AND r.status = 'success' ORDER BY r.started_at DESC LIMIT 1
) WHERE s.last_run_held > 0;
