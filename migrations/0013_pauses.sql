CREATE TABLE `pauses` (
	`pause_id` text PRIMARY KEY NOT NULL,
	`target` text NOT NULL,
	`target_id` text NOT NULL,
	`run_path` text,
	`paused_by` text NOT NULL,
	`reason` text,
	`paused_at` text NOT NULL,
	`paused_position` integer NOT NULL,
	`unpaused_at` text,
	`unpaused_by` text,
	`paused_ms` integer
);
--> statement-breakpoint
CREATE INDEX `pauses_target_idx` ON `pauses` (`target`,`target_id`,`paused_position`);--> statement-breakpoint
CREATE INDEX `pauses_open_idx` ON `pauses` (`unpaused_at`);