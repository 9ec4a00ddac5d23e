-- A split deletes the saves a merge copied, by the record they came from: found through this
-- index rather than by reading every save in the split's transaction.
CREATE INDEX "favorites_copied_from_idx" ON "favorites" USING btree ("copied_from") WHERE "favorites"."copied_from" is not null;