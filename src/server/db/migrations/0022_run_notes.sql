-- What a run could not use from its source, told to the admin: entries the parsers skipped (the
-- count) and every reason with a few examples (notes), so a feed's losses are seen, not silent.
ALTER TABLE "source_runs" ADD COLUMN "skipped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "source_runs" ADD COLUMN "notes" jsonb DEFAULT '[]'::jsonb NOT NULL;