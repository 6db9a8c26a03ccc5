-- Lineage paths compare byte by byte, as on SQLite: a subtree is the range [path, path || '~') and
-- siblings sort by their uuid v7 ids. Under a linguistic collation (en_US, ICU) '/' and '-' weigh
-- nothing at the first level, so that range would miss the descendants. runs_path_idx is rebuilt in C.
ALTER TABLE "runs" ALTER COLUMN "path" SET DATA TYPE text COLLATE "C";
