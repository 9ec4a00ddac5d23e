-- The Overview's last run and the assistant's runs of a window read a year of source runs without
-- these (77 and 63 ms at 578,160 runs; bench/health.bench.ts).
CREATE INDEX "source_runs_finished_idx" ON "source_runs" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "source_runs_started_idx" ON "source_runs" USING btree ("started_at");