ALTER TABLE "runs" ADD COLUMN "a2a_context_id" text;--> statement-breakpoint
CREATE INDEX "runs_a2a_context_idx" ON "runs" USING btree ("a2a_context_id","started_at");