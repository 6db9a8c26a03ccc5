CREATE TABLE "audit_log" (
	"global_position" bigint PRIMARY KEY NOT NULL,
	"stream_id" text NOT NULL,
	"event_type" text NOT NULL,
	"actor" text,
	"correlation_id" text,
	"causation_id" text,
	"recorded_at" text NOT NULL,
	"session_id" text,
	"run_id" text,
	"agent_id" text,
	"tool_name" text,
	"decision" text
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"model" text NOT NULL,
	"config" text NOT NULL,
	"protocol_version" integer NOT NULL,
	"status_reason" text,
	"last_position" bigint NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "child_sessions" (
	"child_session_id" text PRIMARY KEY NOT NULL,
	"parent_session_id" text NOT NULL,
	"agent_name" text NOT NULL,
	"via" text NOT NULL,
	"mapped_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subagent_instances" (
	"parent_session_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"agent_name" text NOT NULL,
	"child_session_id" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"started_at" text NOT NULL,
	"ended_at" text,
	"total_tokens" bigint,
	"total_tool_calls" bigint,
	"duration_ms" bigint,
	CONSTRAINT "subagent_instances_parent_session_id_tool_call_id_pk" PRIMARY KEY("parent_session_id","tool_call_id")
);
--> statement-breakpoint
CREATE TABLE "routed_requests" (
	"global_position" bigint PRIMARY KEY NOT NULL,
	"parent_session_id" text NOT NULL,
	"child_session_id" text,
	"agent_name" text,
	"kind" text NOT NULL,
	"tool_name" text,
	"arguments" text,
	"result" text,
	"outcome" text NOT NULL,
	"reason" text,
	"latency_ms" bigint,
	"recorded_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"fields" text NOT NULL,
	"version" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"prompt" text NOT NULL,
	"status" text NOT NULL,
	"background" boolean NOT NULL,
	"parent_run_id" text,
	"parent_thread_id" text,
	"owner_thread_id" text NOT NULL,
	"root_run_id" text NOT NULL,
	"depth" integer NOT NULL,
	"path" text NOT NULL,
	"thread_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"policy" text NOT NULL,
	"output" text,
	"error" text,
	"stopped_by" text,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"tool_calls" bigint DEFAULT 0 NOT NULL,
	"duration_ms" bigint DEFAULT 0 NOT NULL,
	"started_at" text NOT NULL,
	"launched_at" text NOT NULL,
	"ended_at" text,
	"updated_at" text NOT NULL,
	"owner_notified" boolean DEFAULT false NOT NULL,
	"budget" text,
	"budget_warnings" text DEFAULT '[]' NOT NULL,
	"budget_warnings_told" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"approval_id" text PRIMARY KEY NOT NULL,
	"asked_position" bigint NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"tool_name" text,
	"arguments" text,
	"session_id" text NOT NULL,
	"child_session_id" text,
	"agent_name" text,
	"run_id" text,
	"root_run_id" text,
	"lineage_path" text NOT NULL,
	"requested_at" text NOT NULL,
	"decided_at" text,
	"decision" text,
	"scope" text,
	"decided_by" text,
	"reason" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_stream_idx" ON "audit_log" USING btree ("stream_id","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_correlation_idx" ON "audit_log" USING btree ("correlation_id");--> statement-breakpoint
CREATE INDEX "audit_log_session_idx" ON "audit_log" USING btree ("session_id","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_run_idx" ON "audit_log" USING btree ("run_id","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_agent_idx" ON "audit_log" USING btree ("agent_id","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_tool_idx" ON "audit_log" USING btree ("tool_name","global_position");--> statement-breakpoint
CREATE INDEX "audit_log_recorded_idx" ON "audit_log" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "sessions_status_idx" ON "sessions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "child_sessions_parent_idx" ON "child_sessions" USING btree ("parent_session_id");--> statement-breakpoint
CREATE INDEX "routed_requests_session_idx" ON "routed_requests" USING btree ("parent_session_id","global_position");--> statement-breakpoint
CREATE INDEX "routed_requests_child_idx" ON "routed_requests" USING btree ("child_session_id");--> statement-breakpoint
CREATE INDEX "runs_status_idx" ON "runs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "runs_parent_idx" ON "runs" USING btree ("parent_run_id");--> statement-breakpoint
CREATE INDEX "runs_root_idx" ON "runs" USING btree ("root_run_id");--> statement-breakpoint
CREATE INDEX "runs_path_idx" ON "runs" USING btree ("path");--> statement-breakpoint
CREATE INDEX "runs_owner_status_idx" ON "runs" USING btree ("owner_thread_id","status");--> statement-breakpoint
CREATE INDEX "runs_agent_idx" ON "runs" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "runs_started_idx" ON "runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "runs_thread_idx" ON "runs" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "approvals_status_idx" ON "approvals" USING btree ("status","asked_position");--> statement-breakpoint
CREATE INDEX "approvals_session_idx" ON "approvals" USING btree ("session_id","asked_position");--> statement-breakpoint
CREATE INDEX "approvals_root_run_idx" ON "approvals" USING btree ("root_run_id","asked_position");--> statement-breakpoint
CREATE INDEX "approvals_agent_idx" ON "approvals" USING btree ("agent_name","asked_position");--> statement-breakpoint
CREATE INDEX "approvals_position_idx" ON "approvals" USING btree ("asked_position");