CREATE TABLE "hunt_nodes" (
	"hunt_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "hunt_nodes_hunt_id_node_id_pk" PRIMARY KEY("hunt_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "hunts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"reward" text DEFAULT '' NOT NULL,
	"reward_points" integer DEFAULT 0 NOT NULL,
	"ordered" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_completions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"method" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"accuracy_m" double precision,
	"distance_m" double precision,
	"photo" "bytea",
	"photo_type" text,
	"points_earned" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "quest_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"difficulty" text DEFAULT 'easy' NOT NULL,
	"category" text NOT NULL,
	"points" integer NOT NULL,
	"clue" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"radius_m" integer DEFAULT 75 NOT NULL,
	"requires_photo" boolean DEFAULT false NOT NULL,
	"requirements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"geosymbol_id" uuid,
	"created_by" uuid,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ar_discoveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"place_name" text DEFAULT '' NOT NULL,
	"event_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events_found" integer DEFAULT 0 NOT NULL,
	"points_earned" integer DEFAULT 0 NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"shared_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geosymbol_votes" (
	"geosymbol_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "geosymbol_votes_geosymbol_id_user_id_pk" PRIMARY KEY("geosymbol_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "geosymbols" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"location_text" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"place_name" text,
	"memory" text NOT NULL,
	"symbolic_elements" text DEFAULT '' NOT NULL,
	"user_context" text DEFAULT '' NOT NULL,
	"output_type" text NOT NULL,
	"privacy_level" text DEFAULT 'community' NOT NULL,
	"generated" jsonb NOT NULL,
	"generator" text NOT NULL,
	"community_votes" integer DEFAULT 0 NOT NULL,
	"node_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_dismissals" (
	"user_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_dismissals_user_id_event_id_pk" PRIMARY KEY("user_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "event_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"via" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_interests" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"neighbourhoods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_recommendations" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"items" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "buzz_opt_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "hunt_nodes" ADD CONSTRAINT "hunt_nodes_hunt_id_hunts_id_fk" FOREIGN KEY ("hunt_id") REFERENCES "public"."hunts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunt_nodes" ADD CONSTRAINT "hunt_nodes_node_id_quest_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."quest_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_completions" ADD CONSTRAINT "node_completions_node_id_quest_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."quest_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_completions" ADD CONSTRAINT "node_completions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_completions" ADD CONSTRAINT "node_completions_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quest_nodes" ADD CONSTRAINT "quest_nodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ar_discoveries" ADD CONSTRAINT "ar_discoveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geosymbol_votes" ADD CONSTRAINT "geosymbol_votes_geosymbol_id_geosymbols_id_fk" FOREIGN KEY ("geosymbol_id") REFERENCES "public"."geosymbols"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geosymbol_votes" ADD CONSTRAINT "geosymbol_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geosymbols" ADD CONSTRAINT "geosymbols_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dismissals" ADD CONSTRAINT "event_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_dismissals" ADD CONSTRAINT "event_dismissals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_views" ADD CONSTRAINT "event_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_views" ADD CONSTRAINT "event_views_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_interests" ADD CONSTRAINT "user_interests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_recommendations" ADD CONSTRAINT "user_recommendations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hunt_nodes_node_idx" ON "hunt_nodes" USING btree ("node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "node_completions_node_user_idx" ON "node_completions" USING btree ("node_id","user_id");--> statement-breakpoint
CREATE INDEX "node_completions_user_time_idx" ON "node_completions" USING btree ("user_id","completed_at");--> statement-breakpoint
CREATE INDEX "node_completions_pending_idx" ON "node_completions" USING btree ("created_at") WHERE "node_completions"."status" = 'pending_review';--> statement-breakpoint
CREATE INDEX "quest_nodes_active_idx" ON "quest_nodes" USING btree ("active");--> statement-breakpoint
CREATE INDEX "ar_discoveries_user_time_idx" ON "ar_discoveries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "geosymbols_privacy_time_idx" ON "geosymbols" USING btree ("privacy_level","created_at");--> statement-breakpoint
CREATE INDEX "geosymbols_user_idx" ON "geosymbols" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_views_user_time_idx" ON "event_views" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "event_views_event_idx" ON "event_views" USING btree ("event_id");