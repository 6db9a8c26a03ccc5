ALTER TABLE `model_calls` ADD `bodies` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `replay_source` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `original_call_id` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `replay_position` integer;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `divergence` text;--> statement-breakpoint
ALTER TABLE `model_calls` ADD `fork_point` integer;