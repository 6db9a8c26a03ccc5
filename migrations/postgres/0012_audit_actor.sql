ALTER TABLE "audit_log" ADD COLUMN "actor_kind" text DEFAULT 'key' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_id" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_name" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "decider" text;--> statement-breakpoint
ALTER TABLE "pauses" ADD COLUMN "paused_by_actor" text;--> statement-breakpoint
ALTER TABLE "pauses" ADD COLUMN "unpaused_by_actor" text;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_actor_kind_idx" ON "audit_log" USING btree ("actor_kind","global_position");