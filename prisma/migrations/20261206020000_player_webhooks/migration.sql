-- A player's webhooks (issue 25): one registration covers every game where the player holds a
-- seat, now and later (challenges accepted, tournaments paired). A registration is for exactly
-- one scope: a game, a tournament, or a player.
ALTER TABLE "webhooks" ADD COLUMN "player_id" TEXT;
ALTER TABLE "webhooks" DROP CONSTRAINT "webhooks_check";
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_one_scope" CHECK (num_nonnulls("game_id", "tournament_id", "player_id") = 1);
CREATE INDEX "webhooks_player_id_idx" ON "webhooks" ("player_id");

-- The instances drop the games they cached for a player whose registrations changed.
ALTER TABLE "webhook_changes" ADD COLUMN "player_id" TEXT;

CREATE OR REPLACE FUNCTION "arbiter_webhook_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO "webhook_changes" ("game_id", "tournament_id", "player_id") VALUES (r."game_id", r."tournament_id", r."player_id");
  DELETE FROM "webhook_changes" WHERE "at" < clock_timestamp() - interval '1 hour';
  RETURN NULL;
END
$$;
