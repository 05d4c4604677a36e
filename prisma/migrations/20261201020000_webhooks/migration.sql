-- Webhooks: registrations, and the outbox of their notifications (src/webhooks/).
--
-- A registration is for one scope: a game (all its seats) or one seat of it (`seat`), a
-- tournament (all its games) or one participant of it (`participant_id`). `secret` signs the
-- deliveries (Standard Webhooks), so it is kept as given out; `owner_token_hash` is the SHA-256
-- of the token it was made with. No foreign keys to games or tournaments: a registration names
-- its scope, checked when it was made.
CREATE TABLE "webhooks" (
  "id" TEXT PRIMARY KEY,
  "url" TEXT NOT NULL,
  "secret" TEXT NOT NULL,
  "events" TEXT[] NOT NULL,
  "low_time_thresholds" INTEGER[] NOT NULL DEFAULT '{}',
  "game_id" TEXT,
  "seat" INTEGER,
  "tournament_id" TEXT,
  "participant_id" TEXT,
  "owner_token_hash" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK (("game_id" IS NULL) <> ("tournament_id" IS NULL))
);
CREATE INDEX "webhooks_game_id_idx" ON "webhooks" ("game_id");
CREATE INDEX "webhooks_tournament_id_idx" ON "webhooks" ("tournament_id");

-- The outbox: one message per registration and cause, inserted by the same statement as the
-- events that caused it (a move's append), so a notification exists exactly when its event does.
-- `id` is the message's stable webhook-id (derived from the registration and the cause, so the
-- same cause cannot be enqueued twice). Messages of one (webhook, game) are delivered in
-- (seq, n) order, one at a time. `next_attempt_at` is when the message is due; while an instance
-- delivers it, the end of its lease (a process that dies mid-delivery leaves it to be retried).
-- No foreign key to webhooks: a move must never fail because a registration was just deleted;
-- a message whose webhook is gone is never claimed.
CREATE TABLE "webhook_messages" (
  "id" TEXT PRIMARY KEY,
  "position" BIGSERIAL NOT NULL,
  "webhook_id" TEXT NOT NULL,
  "game_id" TEXT NOT NULL,
  "seq" INTEGER NOT NULL,
  "n" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_attempt_at" TIMESTAMPTZ(3),
  "last_status" INTEGER,
  "last_error" TEXT,
  "delivered_at" TIMESTAMPTZ(3),
  "failed_at" TIMESTAMPTZ(3)
);
-- The pending messages, in delivery order per (webhook, game): the worker's heads.
CREATE INDEX "webhook_messages_pending_idx" ON "webhook_messages" ("webhook_id", "game_id", "seq", "n")
  WHERE "delivered_at" IS NULL AND "failed_at" IS NULL;
-- A registration's delivery log, newest first.
CREATE INDEX "webhook_messages_log_idx" ON "webhook_messages" ("webhook_id", "position");

-- What changed in the registrations, so that every instance drops the registrations it cached
-- for those games and tournaments (polled each second). Kept for an hour.
CREATE TABLE "webhook_changes" (
  "id" BIGSERIAL PRIMARY KEY,
  "game_id" TEXT,
  "tournament_id" TEXT,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX "webhook_changes_at_idx" ON "webhook_changes" ("at");

CREATE FUNCTION "arbiter_webhook_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO "webhook_changes" ("game_id", "tournament_id") VALUES (r."game_id", r."tournament_id");
  DELETE FROM "webhook_changes" WHERE "at" < clock_timestamp() - interval '1 hour';
  RETURN NULL;
END
$$;

-- Registrations are made and deleted, never changed where it matters (a new secret routes nothing).
CREATE TRIGGER "webhooks_changed" AFTER INSERT OR DELETE ON "webhooks"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_webhook_changed"();
