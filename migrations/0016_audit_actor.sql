ALTER TABLE `audit_log` ADD `actor_kind` text DEFAULT 'key' NOT NULL;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `actor_id` text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `actor_name` text DEFAULT 'api' NOT NULL;--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_kind_idx` ON `audit_log` (`actor_kind`,`global_position`);--> statement-breakpoint
ALTER TABLE `approvals` ADD `decider` text;--> statement-breakpoint
ALTER TABLE `pauses` ADD `paused_by_actor` text;--> statement-breakpoint
ALTER TABLE `pauses` ADD `unpaused_by_actor` text;