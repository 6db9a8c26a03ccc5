CREATE TABLE "instance_leases" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"pid" integer NOT NULL,
	"hostname" text NOT NULL,
	"started_at" text NOT NULL,
	"heartbeat_at" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "owner_instance" text;--> statement-breakpoint
CREATE INDEX "sessions_owner_instance_idx" ON "sessions" USING btree ("owner_instance");