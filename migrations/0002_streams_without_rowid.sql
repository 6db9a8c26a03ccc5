-- streams and stream_summaries are keyed by their text id: as WITHOUT ROWID tables the row lives in
-- the primary-key B-tree itself, so each append writes one B-tree for each of them instead of two.
CREATE TABLE `streams_new` (
	`stream_id` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `streams_new` SELECT `stream_id`, `version`, `created_at`, `updated_at` FROM `streams`;
--> statement-breakpoint
DROP TABLE `streams`;
--> statement-breakpoint
ALTER TABLE `streams_new` RENAME TO `streams`;
--> statement-breakpoint
CREATE TABLE `stream_summaries_new` (
	`stream_id` text PRIMARY KEY NOT NULL,
	`category` text NOT NULL,
	`event_count` integer NOT NULL,
	`last_event_type` text NOT NULL,
	`last_global_position` integer NOT NULL,
	`first_recorded_at` text NOT NULL,
	`last_recorded_at` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `stream_summaries_new` SELECT `stream_id`, `category`, `event_count`, `last_event_type`, `last_global_position`, `first_recorded_at`, `last_recorded_at` FROM `stream_summaries`;
--> statement-breakpoint
DROP TABLE `stream_summaries`;
--> statement-breakpoint
ALTER TABLE `stream_summaries_new` RENAME TO `stream_summaries`;
--> statement-breakpoint
CREATE INDEX `stream_summaries_category_idx` ON `stream_summaries` (`category`,`stream_id`);
