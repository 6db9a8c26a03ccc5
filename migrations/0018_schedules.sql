CREATE TABLE `schedule_firings` (
	`firing_id` text PRIMARY KEY NOT NULL,
	`schedule_id` text NOT NULL,
	`due_at` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`run_id` text,
	`instance_id` text,
	`fired_at` text,
	`started_at` text,
	`attempt` integer NOT NULL,
	`reason_code` text,
	`reason_message` text,
	`retry_at` text,
	`missed_count` integer NOT NULL,
	`position` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `schedule_firings_schedule_idx` ON `schedule_firings` (`schedule_id`,`position`);--> statement-breakpoint
CREATE INDEX `schedule_firings_status_idx` ON `schedule_firings` (`status`,`retry_at`);--> statement-breakpoint
CREATE INDEX `schedule_firings_run_idx` ON `schedule_firings` (`run_id`);--> statement-breakpoint
CREATE TABLE `schedules` (
	`schedule_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`agent_id` text NOT NULL,
	`prompt` text NOT NULL,
	`model` text,
	`permission_policy` text,
	`budget` text,
	`cron` text,
	`at` text,
	`time_zone` text NOT NULL,
	`ends_at` text,
	`overlap` text NOT NULL,
	`catch_up` text NOT NULL,
	`enabled` integer NOT NULL,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text,
	`cursor_at` text NOT NULL,
	`next_due_at` text,
	`last_firing_id` text,
	`last_due_at` text
);
--> statement-breakpoint
CREATE INDEX `schedules_due_idx` ON `schedules` (`enabled`,`next_due_at`);--> statement-breakpoint
CREATE INDEX `schedules_created_idx` ON `schedules` (`created_at`,`schedule_id`);