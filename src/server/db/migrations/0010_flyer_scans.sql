CREATE TABLE "flyer_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"is_new" boolean NOT NULL,
	"new_venue" boolean DEFAULT false NOT NULL,
	"extraction" jsonb NOT NULL,
	"text" text NOT NULL,
	"confidence" real NOT NULL,
	"ocr_ms" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flyer_scans" ADD CONSTRAINT "flyer_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flyer_scans" ADD CONSTRAINT "flyer_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flyer_scans_user_time_idx" ON "flyer_scans" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "flyer_scans_event_idx" ON "flyer_scans" USING btree ("event_id");