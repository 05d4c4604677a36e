-- Seats bound to players (issue 25): a player's key acts as the seat, and the player's inbox lists
-- the game. The binding is also in the game's events (GameCreated's seats, SeatJoined): the
-- column is what a key's seat is found by.
ALTER TABLE "seats" ADD COLUMN "player_id" TEXT;
CREATE INDEX "seats_player_id_idx" ON "seats" ("player_id");

-- The inbox: one row per player and game in which the player holds a seat, written by the
-- statement that appends the game's events (src/referee/store/player-games-store.ts), and after a
-- new game is stored. Derived data: `version` is the game version the row was computed at, and
-- an older computation never overwrites a newer one. `to_act`: the game waits for this seat;
-- `deadline`: when the seat's time runs out, if its clock runs; `updated_at`: the time of the
-- game's last event. No foreign key: the games' own rows are the truth.
CREATE TABLE "player_games" (
  "player_id" TEXT NOT NULL,
  "game_id" TEXT NOT NULL,
  "seat" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "to_act" BOOLEAN NOT NULL,
  "deadline" TIMESTAMPTZ(3),
  "version" INTEGER NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("player_id", "game_id")
);
-- "Where is it my turn": the games waiting for the player, the most pressing deadline first
-- (games without a clock after them).
CREATE INDEX "player_games_to_act_idx" ON "player_games" ("player_id", (COALESCE("deadline", 'infinity'::timestamptz)), "game_id") WHERE "to_act";
-- Every game of the player, the most recently moved first, also by status and by kind.
CREATE INDEX "player_games_updated_idx" ON "player_games" ("player_id", "updated_at" DESC, "game_id" DESC);
CREATE INDEX "player_games_status_idx" ON "player_games" ("player_id", "status", "updated_at" DESC, "game_id" DESC);
CREATE INDEX "player_games_kind_idx" ON "player_games" ("player_id", "kind", "updated_at" DESC, "game_id" DESC);
