-- Ratings (docs/ratings.md): one hash-chained stream per pool (a game kind in a time-control
-- family), of the same row shape as every other stream's; the players' current ratings and each
-- game's changes as the reads need them, written in the transaction of the event they come from;
-- and the queue of rated games that ended and are not rated yet, written with the game's end.
CREATE TABLE "rating_pools" (
  "id" TEXT PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "family" TEXT NOT NULL,
  "version" INTEGER NOT NULL,
  "head_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE TABLE "rating_events" (
  "pool_id" TEXT NOT NULL REFERENCES "rating_pools" ("id") ON DELETE CASCADE,
  "seq" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "actor" INTEGER,
  "move_id" TEXT,
  "body_hash" TEXT,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "prev_hash" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  PRIMARY KEY ("pool_id", "seq"),
  UNIQUE ("pool_id", "move_id")
);

-- A player's rating in a pool as of the pool's event `seq` (the leaderboard pages by rating).
CREATE TABLE "ratings" (
  "pool_id" TEXT NOT NULL REFERENCES "rating_pools" ("id") ON DELETE CASCADE,
  "player_id" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "family" TEXT NOT NULL,
  "rating" DOUBLE PRECISION NOT NULL,
  "rd" DOUBLE PRECISION NOT NULL,
  "volatility" DOUBLE PRECISION,
  "games" INTEGER NOT NULL,
  "last_at" TIMESTAMPTZ(3),
  "seq" INTEGER NOT NULL,
  PRIMARY KEY ("pool_id", "player_id")
);
CREATE INDEX "ratings_board_idx" ON "ratings" ("pool_id", "rating" DESC, "player_id");
CREATE INDEX "ratings_player_idx" ON "ratings" ("player_id");

-- Each rated game's change to each of its players' ratings (a player's history, a game's result).
CREATE TABLE "rating_changes" (
  "pool_id" TEXT NOT NULL REFERENCES "rating_pools" ("id") ON DELETE CASCADE,
  "seq" INTEGER NOT NULL,
  "player_id" TEXT NOT NULL,
  "game_id" TEXT NOT NULL,
  "seat" INTEGER NOT NULL,
  "place" INTEGER NOT NULL,
  "before" JSONB NOT NULL,
  "after" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("pool_id", "seq", "player_id")
);
CREATE INDEX "rating_changes_player_idx" ON "rating_changes" ("player_id", "pool_id", "seq" DESC);
CREATE INDEX "rating_changes_game_idx" ON "rating_changes" ("game_id");

-- Rated games that ended, to rate: a row is stored with the game's end and deleted with its rating.
CREATE TABLE "rating_queue" (
  "id" BIGSERIAL PRIMARY KEY,
  "game_id" TEXT NOT NULL UNIQUE,
  "game" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
