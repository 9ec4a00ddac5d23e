-- The sources list tells an admin, without opening the history, how many entries of the feed the
-- last successful run could not use.
ALTER TABLE "sources" ADD COLUMN "last_run_skipped" integer DEFAULT 0 NOT NULL;