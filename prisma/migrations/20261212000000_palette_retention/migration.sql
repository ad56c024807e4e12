-- Retention for tool lists: `last_day` is the latest UTC day of a decision naming the list, and
-- `npm run prune` deletes the lists whose last day lies before its horizon's day (ingest moves
-- it up whenever it stores a later decision naming the list).
--
-- Lists stored before this migration get the day after it: decisions may be dated up to a day
-- ahead of the server clock, so no stored decision names a list after that day. They are then
-- kept until a prune's horizon passes it, without reading the decisions to find their day.
ALTER TABLE "palettes" ADD COLUMN "last_day" DATE NOT NULL
  DEFAULT ((now() AT TIME ZONE 'UTC')::date + 1);
ALTER TABLE "palettes" ALTER COLUMN "last_day" DROP DEFAULT;

-- How many times tool lists have been deleted: a server process forgets the lists it
-- remembers when the count changes (lib/ingest/palettes.ts). One row.
CREATE TABLE "palette_prunes" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "epoch" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "palette_prunes_pkey" PRIMARY KEY ("id")
);
INSERT INTO "palette_prunes" ("id", "epoch") VALUES (1, 0);
