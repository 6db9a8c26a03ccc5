CREATE TABLE `events` (
	`global_position` integer PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`stream_id` text NOT NULL,
	`stream_position` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`metadata` text NOT NULL,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_stream_position_uq` ON `events` (`stream_id`,`stream_position`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_event_id_uq` ON `events` (`event_id`);--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`type`);--> statement-breakpoint
CREATE TABLE `streams` (
	`stream_id` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `projection_checkpoints` (
	`projection_name` text PRIMARY KEY NOT NULL,
	`position` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stream_summaries` (
	`stream_id` text PRIMARY KEY NOT NULL,
	`category` text NOT NULL,
	`event_count` integer NOT NULL,
	`last_event_type` text NOT NULL,
	`last_global_position` integer NOT NULL,
	`first_recorded_at` text NOT NULL,
	`last_recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stream_summaries_category_idx` ON `stream_summaries` (`category`,`stream_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`global_position` integer PRIMARY KEY NOT NULL,
	`stream_id` text NOT NULL,
	`event_type` text NOT NULL,
	`actor` text,
	`correlation_id` text,
	`causation_id` text,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_stream_idx` ON `audit_log` (`stream_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_correlation_idx` ON `audit_log` (`correlation_id`);