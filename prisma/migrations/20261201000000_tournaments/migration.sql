-- Tournaments: an aggregate with its own hash-chained stream, beside the games' (the same row
-- shape, so the same code chains, folds and verifies both). A tournament's games are ordinary
-- games tagged with their tournament, round and board; a participant's one token acts as its
-- seat in each of them (seats.participant_id), so seats of tournament games carry no token.
CREATE TABLE "tournaments" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "format" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "version" INTEGER NOT NULL,
  "head_hash" TEXT NOT NULL,
  "seed_commitment" TEXT NOT NULL,
  "seed" TEXT NOT NULL,
  "organizer_token_hash" TEXT NOT NULL UNIQUE,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "tournaments_created_at_id_idx" ON "tournaments" ("created_at", "id");

CREATE TABLE "tournament_events" (
  "tournament_id" TEXT NOT NULL REFERENCES "tournaments" ("id") ON DELETE CASCADE,
  "seq" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "actor" INTEGER,
  "move_id" TEXT,
  "body_hash" TEXT,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "prev_hash" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  PRIMARY KEY ("tournament_id", "seq"),
  UNIQUE ("tournament_id", "move_id")
);

CREATE TABLE "participants" (
  "id" TEXT PRIMARY KEY,
  "tournament_id" TEXT NOT NULL REFERENCES "tournaments" ("id") ON DELETE CASCADE,
  "registration_no" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "token_hash" TEXT NOT NULL UNIQUE,
  UNIQUE ("tournament_id", "registration_no")
);

ALTER TABLE "games" ADD COLUMN "tournament_id" TEXT, ADD COLUMN "round" INTEGER, ADD COLUMN "board" INTEGER;
CREATE INDEX "games_tournament_id_round_board_idx" ON "games" ("tournament_id", "round", "board");
ALTER TABLE "seats" ADD COLUMN "participant_id" TEXT;
CREATE INDEX "seats_participant_id_idx" ON "seats" ("participant_id");

-- Every stored tournament command notifies the same channel as games ("<id> <version>"): the
-- instances' listeners tell tournament subscribers too. Tournament ids start with "t-".
CREATE TRIGGER "tournaments_appended" AFTER INSERT OR UPDATE OF "version" ON "tournaments"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_appended"();
