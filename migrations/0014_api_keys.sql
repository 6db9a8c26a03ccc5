CREATE TABLE `api_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`prefix` text NOT NULL,
	`secret_sha256` text NOT NULL,
	`expires_at` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	`revoked_by` text,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret_sha256_unique` ON `api_keys` (`secret_sha256`);--> statement-breakpoint
CREATE INDEX `api_keys_created_idx` ON `api_keys` (`created_at`);