-- An event a source says is cancelled (its item's STATUS) is told apart from one that only left
-- the feed: its page, the saved list and calendar feeds say "cancelled". Events already gone stay
-- "removed by the source": which of them were cancelled was not recorded.
ALTER TABLE "events" ADD COLUMN "cancelled_by_source" boolean DEFAULT false NOT NULL;
