CREATE TABLE `runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`prompt` text NOT NULL,
	`status` text NOT NULL,
	`background` integer NOT NULL,
	`parent_run_id` text,
	`parent_thread_id` text,
	`owner_thread_id` text NOT NULL,
	`root_run_id` text NOT NULL,
	`depth` integer NOT NULL,
	`path` text NOT NULL,
	`thread_id` text NOT NULL,
	`epoch` integer NOT NULL,
	`policy` text NOT NULL,
	`output` text,
	`error` text,
	`stopped_by` text,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`tool_calls` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`started_at` text NOT NULL,
	`launched_at` text NOT NULL,
	`ended_at` text,
	`updated_at` text NOT NULL,
	`owner_notified` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_status_idx` ON `runs` (`status`);--> statement-breakpoint
CREATE INDEX `runs_parent_idx` ON `runs` (`parent_run_id`);--> statement-breakpoint
CREATE INDEX `runs_root_idx` ON `runs` (`root_run_id`);--> statement-breakpoint
CREATE INDEX `runs_path_idx` ON `runs` (`path`);--> statement-breakpoint
CREATE INDEX `runs_owner_status_idx` ON `runs` (`owner_thread_id`,`status`);--> statement-breakpoint
CREATE INDEX `runs_agent_idx` ON `runs` (`agent_id`);--> statement-breakpoint
CREATE INDEX `runs_started_idx` ON `runs` (`started_at`);--> statement-breakpoint
CREATE INDEX `runs_thread_idx` ON `runs` (`thread_id`);