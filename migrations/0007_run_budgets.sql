ALTER TABLE `runs` ADD `budget` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `budget_warnings` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `budget_warnings_told` integer DEFAULT 0 NOT NULL;