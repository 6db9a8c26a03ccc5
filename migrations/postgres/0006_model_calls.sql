-- run_path compares byte by byte (COLLATE "C"), as runs.path does: a subtree is the range [path, path || '~').
CREATE TABLE "model_calls" (
	"call_id" text PRIMARY KEY NOT NULL,
	"started_position" bigint NOT NULL,
	"status" text NOT NULL,
	"session_id" text NOT NULL,
	"cli_agent_id" text NOT NULL,
	"agent_invocation_id" text,
	"agent_name" text NOT NULL,
	"subagent_id" text,
	"run_id" text,
	"root_run_id" text,
	"run_path" text COLLATE "C",
	"lineage_path" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"interaction_type" text,
	"initiator" text,
	"request_bytes" bigint NOT NULL,
	"message_count" integer NOT NULL,
	"tool_count" integer NOT NULL,
	"stream" boolean NOT NULL,
	"http_status" integer,
	"ttfb_ms" bigint,
	"duration_ms" bigint,
	"input_tokens" bigint,
	"output_tokens" bigint,
	"cached_input_tokens" bigint,
	"reasoning_tokens" bigint,
	"response_id" text,
	"finish_reason" text,
	"cost" double precision,
	"currency" text,
	"error" text,
	"instance_id" text NOT NULL,
	"started_at" text NOT NULL,
	"ended_at" text
);
--> statement-breakpoint
CREATE INDEX "model_calls_session_idx" ON "model_calls" USING btree ("session_id","started_position");--> statement-breakpoint
CREATE INDEX "model_calls_run_idx" ON "model_calls" USING btree ("run_id","started_position");--> statement-breakpoint
CREATE INDEX "model_calls_run_path_idx" ON "model_calls" USING btree ("run_path");--> statement-breakpoint
CREATE INDEX "model_calls_status_idx" ON "model_calls" USING btree ("status","instance_id");--> statement-breakpoint
CREATE INDEX "model_calls_position_idx" ON "model_calls" USING btree ("started_position");