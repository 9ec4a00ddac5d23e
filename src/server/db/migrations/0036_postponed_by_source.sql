-- An event a source says is postponed with no new date yet (schema.org EventPostponed, Ticketmaster
-- "postponed", an open-data status) goes out of lists as a cancelled one does, but its page, the
-- saved list and calendar feeds say "postponed"; the mark clears when the source lists it again.
ALTER TABLE "events" ADD COLUMN "postponed_by_source" boolean DEFAULT false NOT NULL;
