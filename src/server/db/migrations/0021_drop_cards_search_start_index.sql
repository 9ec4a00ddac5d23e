-- events_cards_search_start_idx (0015) carried each listed card's words (the search tsvector) and
-- title in a btree index, so a search by date could walk the cards in start order from the index
-- alone. A btree entry must fit in a third of a page (2,704 bytes) and a tsvector grows with its
-- description: a real calendar item with a 2,855-character description (ical4j THFC) failed the
-- insert, and with it its source's whole run, so none of the calendar's events were listed. The
-- walk now reads the rows through events_cards_start_idx; the words stay in the GIN indexes.
DROP INDEX IF EXISTS "events_cards_search_start_idx";
