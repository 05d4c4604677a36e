-- The transparency log (docs/transparency.md), two additions.
--
-- 1. Running heads: at each checkpoint interval the sequencer logs the head of every running game
--    and tournament that moved since its last leaf ("running-game", "running-tournament"): many
--    per stream, one per head (kind, stream, seq); a final entry stays one per stream.
ALTER TABLE "log_entries" DROP CONSTRAINT "log_entries_kind_stream_id_key";
CREATE UNIQUE INDEX "log_entries_final" ON "log_entries" ("kind", "stream_id") WHERE "kind" IN ('game', 'tournament');
CREATE UNIQUE INDEX "log_entries_head" ON "log_entries" ("kind", "stream_id", "seq");

-- 2. Witnesses' cosignatures of the checkpoints (c2sp.org/tlog-cosignature): each one's signature
--    line, served appended to the checkpoint it cosigns.
CREATE TABLE "log_cosignatures" (
  "size" BIGINT NOT NULL REFERENCES "log_checkpoints" ("size") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "key_id" TEXT NOT NULL,
  "line" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("size", "name", "key_id")
);
CREATE INDEX "log_cosignatures_witness" ON "log_cosignatures" ("name", "key_id", "size");
