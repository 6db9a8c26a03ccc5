ALTER TABLE `runs` ADD `a2a_context_id` text;--> statement-breakpoint
CREATE INDEX `runs_a2a_context_idx` ON `runs` (`a2a_context_id`,`started_at`);