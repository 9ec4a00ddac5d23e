-- The sources list and the admin Overview tell how many listed events a source's last run did not
-- meet yet kept listed (it read only part of the source, or most of its events went missing at once).
ALTER TABLE "sources" ADD COLUMN "last_run_held" integer DEFAULT 0 NOT NULL;