ALTER TABLE `runs` ADD `replay_of` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `replay_mode` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `forked_from_call` text;--> statement-breakpoint
CREATE INDEX `runs_replay_of_idx` ON `runs` (`replay_of`);