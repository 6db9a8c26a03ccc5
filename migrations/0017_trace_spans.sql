CREATE TABLE `trace_session_contexts` (
	`session_id` text PRIMARY KEY NOT NULL,
	`trace_id` text,
	`span_id` text,
	`agent_id` text,
	`agent_name` text,
	`run_id` text,
	`team` text
);
--> statement-breakpoint
CREATE TABLE `trace_spans` (
	`span_id` text PRIMARY KEY NOT NULL,
	`trace_id` text NOT NULL,
	`parent_span_id` text,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text,
	`status_code` text NOT NULL,
	`status_message` text,
	`attributes` text NOT NULL,
	`events` text NOT NULL,
	`opened_position` integer NOT NULL,
	`ended_position` integer,
	`exported_at` text,
	`claimed_by` text,
	`claimed_until` text
);
--> statement-breakpoint
CREATE INDEX `trace_spans_waiting_idx` ON `trace_spans` (`exported_at`,`ended_position`);--> statement-breakpoint
CREATE INDEX `trace_spans_trace_idx` ON `trace_spans` (`trace_id`);