-- The game row anchors its stream's head: the hash of the event at `version`. Loading, verifying
-- and exporting compare the stream with it, so a truncated stream is caught.
ALTER TABLE "games" ADD COLUMN "head_hash" TEXT;

UPDATE "games" AS g SET "head_hash" = e."hash" FROM "events" AS e WHERE e."game_id" = g."id" AND e."seq" = g."version";
