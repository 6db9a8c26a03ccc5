ALTER TABLE "model_calls" ADD COLUMN "bodies" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "replay_source" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "original_call_id" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "replay_position" bigint;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "divergence" text;--> statement-breakpoint
ALTER TABLE "model_calls" ADD COLUMN "fork_point" boolean;