-- Players and apps (docs/players.md): accounts with their own hash-chained streams, beside games'
-- and tournaments' (the same row shape), and the keys they hold. A key is stored only as the
-- SHA-256 of its secret, found by that hash; its row is written in the same transaction as the
-- event that issues, rotates or revokes it, so every instance refuses a revoked key at once.
CREATE TABLE "accounts" (
  "id" TEXT PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "external_id" TEXT,
  "app_id" TEXT REFERENCES "accounts" ("id"),
  "version" INTEGER NOT NULL,
  "head_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
-- An app names each of its players once (EXTERNAL_ID_TAKEN).
CREATE UNIQUE INDEX "accounts_app_id_external_id_key" ON "accounts" ("app_id", "external_id");

CREATE TABLE "account_events" (
  "account_id" TEXT NOT NULL REFERENCES "accounts" ("id") ON DELETE CASCADE,
  "seq" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "actor" INTEGER,
  "move_id" TEXT,
  "body_hash" TEXT,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "prev_hash" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  PRIMARY KEY ("account_id", "seq"),
  UNIQUE ("account_id", "move_id")
);

CREATE TABLE "keys" (
  "id" TEXT PRIMARY KEY,
  "account_id" TEXT NOT NULL REFERENCES "accounts" ("id") ON DELETE CASCADE,
  "hash" TEXT NOT NULL UNIQUE,
  "prefix" TEXT NOT NULL,
  "scopes" TEXT[] NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "last_used_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3)
);
CREATE INDEX "keys_account_id_idx" ON "keys" ("account_id");
