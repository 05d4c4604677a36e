-- The players' feed (GET /api/me/stream, myEvents): per player, the notices meant for them (game
-- started, your turn, game over, challenges...), written in the statement or transaction that
-- stores what they tell of (src/referee/store/player-feed-store.ts). `dedupe_key` stores the same
-- notice once. Derived data: no foreign key, the games' and accounts' own rows are the truth.
--
-- Readers resume after a cursor without gaps. `id` alone cannot be one: ids are drawn before
-- their transactions commit, so a smaller id may commit after a reader passed a larger one.
-- Each row keeps the id of the transaction that wrote it (`xid`), and readers take only rows of
-- transactions older than every one still running (below pg_snapshot_xmin of their snapshot),
-- in (xid, id) order: no row can appear later before a row already read.
CREATE TABLE "player_feed" (
  "id" BIGSERIAL PRIMARY KEY,
  "player_id" TEXT NOT NULL,
  "dedupe_key" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "data" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "xid" XID8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE UNIQUE INDEX "player_feed_dedupe_key_key" ON "player_feed" ("dedupe_key");
-- A player's notices after a cursor, in order.
CREATE INDEX "player_feed_player_id_xid_id_idx" ON "player_feed" ("player_id", "xid", "id");
