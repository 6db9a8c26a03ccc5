CREATE TABLE `approvals` (
	`approval_id` text PRIMARY KEY NOT NULL,
	`asked_position` integer NOT NULL,
	`status` text NOT NULL,
	`kind` text NOT NULL,
	`tool_name` text,
	`arguments` text,
	`session_id` text NOT NULL,
	`child_session_id` text,
	`agent_name` text,
	`run_id` text,
	`root_run_id` text,
	`lineage_path` text NOT NULL,
	`requested_at` text NOT NULL,
	`decided_at` text,
	`decision` text,
	`scope` text,
	`decided_by` text,
	`reason` text
);
--> statement-breakpoint
CREATE INDEX `approvals_status_idx` ON `approvals` (`status`,`asked_position`);--> statement-breakpoint
CREATE INDEX `approvals_session_idx` ON `approvals` (`session_id`,`asked_position`);--> statement-breakpoint
CREATE INDEX `approvals_root_run_idx` ON `approvals` (`root_run_id`,`asked_position`);--> statement-breakpoint
CREATE INDEX `approvals_agent_idx` ON `approvals` (`agent_name`,`asked_position`);--> statement-breakpoint
CREATE INDEX `approvals_position_idx` ON `approvals` (`asked_position`);