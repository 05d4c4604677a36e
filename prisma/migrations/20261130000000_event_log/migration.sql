CREATE SCHEMA IF NOT EXISTS "public";

CREATE TABLE "games" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "ruleset" JSONB NOT NULL,
    "ruleset_hash" TEXT NOT NULL,
    "seed_commitment" TEXT NOT NULL,
    "server_seed" TEXT NOT NULL,
    "random_source" TEXT NOT NULL,
    "supplied_chance" JSONB,
    "imported" BOOLEAN NOT NULL DEFAULT false,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "seats" (
    "game_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT,
    "token_hash" TEXT,
    "client_seed" TEXT,
    "joined_at" TIMESTAMPTZ(3),
    CONSTRAINT "seats_pkey" PRIMARY KEY ("game_id","index")
);

CREATE TABLE "events" (
    "game_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "actor" INTEGER,
    "move_id" TEXT,
    "body_hash" TEXT,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "events_pkey" PRIMARY KEY ("game_id","seq")
);

CREATE INDEX "games_created_at_id_idx" ON "games"("created_at", "id");
CREATE INDEX "games_kind_status_created_at_idx" ON "games"("kind", "status", "created_at");
CREATE UNIQUE INDEX "seats_token_hash_key" ON "seats"("token_hash");
CREATE UNIQUE INDEX "events_game_id_move_id_key" ON "events"("game_id", "move_id");

ALTER TABLE "seats" ADD CONSTRAINT "seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "events" ADD CONSTRAINT "events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
