CREATE TABLE `sessions` (
	`session_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`model` text NOT NULL,
	`config` text NOT NULL,
	`protocol_version` integer NOT NULL,
	`status_reason` text,
	`last_position` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_status_idx` ON `sessions` (`status`);--> statement-breakpoint
CREATE TABLE `child_sessions` (
	`child_session_id` text PRIMARY KEY NOT NULL,
	`parent_session_id` text NOT NULL,
	`agent_name` text NOT NULL,
	`via` text NOT NULL,
	`mapped_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `child_sessions_parent_idx` ON `child_sessions` (`parent_session_id`);--> statement-breakpoint
CREATE TABLE `subagent_instances` (
	`parent_session_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`agent_name` text NOT NULL,
	`child_session_id` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`started_at` text NOT NULL,
	`ended_at` text,
	`total_tokens` integer,
	`total_tool_calls` integer,
	`duration_ms` integer,
	PRIMARY KEY(`parent_session_id`, `tool_call_id`)
);
--> statement-breakpoint
CREATE TABLE `routed_requests` (
	`global_position` integer PRIMARY KEY NOT NULL,
	`parent_session_id` text NOT NULL,
	`child_session_id` text,
	`agent_name` text,
	`kind` text NOT NULL,
	`tool_name` text,
	`arguments` text,
	`result` text,
	`outcome` text NOT NULL,
	`reason` text,
	`latency_ms` integer,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `routed_requests_session_idx` ON `routed_requests` (`parent_session_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `routed_requests_child_idx` ON `routed_requests` (`child_session_id`);--> statement-breakpoint
DROP INDEX `events_type_idx`;