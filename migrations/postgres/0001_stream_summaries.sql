CREATE TABLE "stream_summaries" (
	"stream_id" text PRIMARY KEY NOT NULL,
	"category" text NOT NULL,
	"event_count" integer NOT NULL,
	"last_event_type" text NOT NULL,
	"last_global_position" bigint NOT NULL,
	"first_recorded_at" timestamp with time zone NOT NULL,
	"last_recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stream_summaries_category_idx" ON "stream_summaries" USING btree ("category","stream_id");