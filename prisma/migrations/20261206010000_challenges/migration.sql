-- Challenges between players (docs/players.md, "Challenges"): each its own hash-chained stream
-- beside games', tournaments' and accounts' (the same row shape). The row holds what the lists
-- page by (the challenged player's, the challenger's, the open ones) and the accepted game's id.
-- An OPEN challenge past `expires_at` reads EXPIRED: expiry is computed when read, never written.
CREATE TABLE "challenges" (
  "id" TEXT PRIMARY KEY,
  "challenger_id" TEXT NOT NULL REFERENCES "accounts" ("id"),
  -- Null: an open challenge, which any other player may accept.
  "challenged_id" TEXT REFERENCES "accounts" ("id"),
  "kind" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "game_id" TEXT,
  "version" INTEGER NOT NULL,
  "head_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "challenges_challenged_idx" ON "challenges" ("challenged_id", "created_at" DESC, "id" DESC);
CREATE INDEX "challenges_challenger_idx" ON "challenges" ("challenger_id", "created_at" DESC, "id" DESC);
CREATE INDEX "challenges_open_idx" ON "challenges" ("created_at" DESC, "id" DESC) WHERE "challenged_id" IS NULL AND "status" = 'OPEN';
-- The accepted challenges whose game a stopped process may not have created (the start-up catch-up).
CREATE INDEX "challenges_accepted_idx" ON "challenges" ("game_id") WHERE "status" = 'ACCEPTED';

CREATE TABLE "challenge_events" (
  "challenge_id" TEXT NOT NULL REFERENCES "challenges" ("id") ON DELETE CASCADE,
  "seq" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "actor" INTEGER,
  "move_id" TEXT,
  "body_hash" TEXT,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "prev_hash" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  PRIMARY KEY ("challenge_id", "seq"),
  UNIQUE ("challenge_id", "move_id")
);
