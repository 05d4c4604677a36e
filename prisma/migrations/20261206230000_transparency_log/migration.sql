-- The transparency log (docs/transparency.md): an append-only Merkle tree (RFC 9162) whose
-- entries are the final heads of finished games and tournaments, and its signed checkpoints.
--
-- An entry is written in the statement that finishes its stream (a consequence of the append),
-- without a place in the tree; the sequencer (one at a time over all instances: an advisory lock
-- and a compare-and-set on "log_tree") gives the waiting entries their leaf indices in id order,
-- stores the perfect subtrees they complete and signs a checkpoint.
CREATE TABLE "log_entries" (
  "id" BIGSERIAL PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "stream_id" TEXT NOT NULL,
  "seq" INTEGER NOT NULL,
  "hash" TEXT NOT NULL,
  "result" JSONB,
  "leaf_index" BIGINT UNIQUE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  UNIQUE ("kind", "stream_id")
);
CREATE INDEX "log_entries_waiting" ON "log_entries" ("id") WHERE "leaf_index" IS NULL;

-- The hash of every perfect subtree: (level, idx) covers the leaves [idx·2^level, (idx+1)·2^level).
CREATE TABLE "log_nodes" (
  "level" SMALLINT NOT NULL,
  "idx" BIGINT NOT NULL,
  "hash" BYTEA NOT NULL,
  PRIMARY KEY ("level", "idx")
);

-- The tree's size and root: one row, moved only from the size it had (the compare-and-set).
CREATE TABLE "log_tree" (
  "id" SMALLINT PRIMARY KEY CHECK ("id" = 1),
  "size" BIGINT NOT NULL,
  "root" BYTEA NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
INSERT INTO "log_tree" ("id", "size", "root") VALUES (1, 0, '\xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');

-- Every signed checkpoint (C2SP tlog-checkpoint as a signed note), one per tree size.
CREATE TABLE "log_checkpoints" (
  "size" BIGINT PRIMARY KEY,
  "root" BYTEA NOT NULL,
  "note" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- The games and tournaments finished before the log: their entries, oldest first.
INSERT INTO "log_entries" ("kind", "stream_id", "seq", "hash", "result")
SELECT 'game', "id", "version", "head_hash", "result" FROM "games"
WHERE "status" IN ('FINISHED', 'ABORTED') AND "head_hash" IS NOT NULL
ORDER BY "updated_at", "id";
INSERT INTO "log_entries" ("kind", "stream_id", "seq", "hash", "result")
SELECT 'tournament', t."id", t."version", t."head_hash", jsonb_build_object('ranking', e."payload" -> 'ranking')
FROM "tournaments" t JOIN "tournament_events" e ON e."tournament_id" = t."id" AND e."type" = 'TournamentFinished'
WHERE t."status" = 'FINISHED'
ORDER BY t."updated_at", t."id";
