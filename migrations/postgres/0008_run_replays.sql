ALTER TABLE "runs" ADD COLUMN "replay_of" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "replay_mode" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "forked_from_call" text;--> statement-breakpoint
CREATE INDEX "runs_replay_of_idx" ON "runs" USING btree ("replay_of");