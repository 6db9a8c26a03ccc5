ALTER TABLE `audit_log` ADD `session_id` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `run_id` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `agent_id` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `tool_name` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `decision` text;--> statement-breakpoint
CREATE INDEX `audit_log_session_idx` ON `audit_log` (`session_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_run_idx` ON `audit_log` (`run_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_agent_idx` ON `audit_log` (`agent_id`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_tool_idx` ON `audit_log` (`tool_name`,`global_position`);--> statement-breakpoint
CREATE INDEX `audit_log_recorded_idx` ON `audit_log` (`recorded_at`);--> statement-breakpoint
-- Rows written before these columns existed lack them: empty the read model and rewind its checkpoint,
-- so the async projection replays the log into it on the next start.
DELETE FROM `audit_log`;--> statement-breakpoint
DELETE FROM `projection_checkpoints` WHERE `projection_name` = 'audit-log';
