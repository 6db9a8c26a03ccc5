ALTER TABLE `sessions` ADD `title` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `preview` text;