-- A decision's dropped tools were stored twice: in `dropped`, and as `offered` minus `selected`.
-- With real tool names that list was about a quarter of a decision row. Whatever needs it now
-- derives it from the two lists (the outcome join's harmful tools, the per-tool rollups at
-- ingest, the run trace from the stage records).
--
-- Dropping a column changes only the catalogue, at once and whatever the table's size: rows
-- stored before keep their bytes until `npm run prune` drops their week's partition (or the
-- partition is rewritten, for example by VACUUM FULL); rows stored after take less room.

ALTER TABLE "decisions" DROP COLUMN "dropped";
