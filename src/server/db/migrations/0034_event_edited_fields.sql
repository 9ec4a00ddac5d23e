-- The fields an admin corrected in the Edit dialog: a source's later change of its item no longer
-- undoes them. Edits made before this are not known; they stay until the source next changes the item.
ALTER TABLE "events" ADD COLUMN "edited_fields" text[] DEFAULT '{}'::text[] NOT NULL;
