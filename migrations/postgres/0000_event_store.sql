CREATE TABLE "events" (
	"global_position" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_global_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text NOT NULL,
	"stream_id" text NOT NULL,
	"stream_position" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"metadata" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "streams" (
	"stream_id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projection_checkpoints" (
	"projection_name" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_stream_position_uq" ON "events" USING btree ("stream_id","stream_position");--> statement-breakpoint
CREATE UNIQUE INDEX "events_event_id_uq" ON "events" USING btree ("event_id");