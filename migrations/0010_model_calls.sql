CREATE TABLE `model_calls` (
	`call_id` text PRIMARY KEY NOT NULL,
	`started_position` integer NOT NULL,
	`status` text NOT NULL,
	`session_id` text NOT NULL,
	`cli_agent_id` text NOT NULL,
	`agent_invocation_id` text,
	`agent_name` text NOT NULL,
	`subagent_id` text,
	`run_id` text,
	`root_run_id` text,
	`run_path` text,
	`lineage_path` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`interaction_type` text,
	`initiator` text,
	`request_bytes` integer NOT NULL,
	`message_count` integer NOT NULL,
	`tool_count` integer NOT NULL,
	`stream` integer NOT NULL,
	`http_status` integer,
	`ttfb_ms` integer,
	`duration_ms` integer,
	`input_tokens` integer,
	`output_tokens` integer,
	`cached_input_tokens` integer,
	`reasoning_tokens` integer,
	`response_id` text,
	`finish_reason` text,
	`cost` real,
	`currency` text,
	`error` text,
	`instance_id` text NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text
);
--> statement-breakpoint
CREATE INDEX `model_calls_session_idx` ON `model_calls` (`session_id`,`started_position`);--> statement-breakpoint
CREATE INDEX `model_calls_run_idx` ON `model_calls` (`run_id`,`started_position`);--> statement-breakpoint
CREATE INDEX `model_calls_run_path_idx` ON `model_calls` (`run_path`);--> statement-breakpoint
CREATE INDEX `model_calls_status_idx` ON `model_calls` (`status`,`instance_id`);--> statement-breakpoint
CREATE INDEX `model_calls_position_idx` ON `model_calls` (`started_position`);