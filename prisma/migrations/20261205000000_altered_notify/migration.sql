-- The event logs are append-only: the service never updates or deletes a stored event. An event
-- updated or deleted all the same (by hand, by an intruder; also a game or tournament deleted,
-- whose events go with it) notifies `arbiter_altered` with the stream's id when its transaction
-- commits, so every instance drops its cached copy and reads the stream again from its log, where
-- the hash chain's check refuses it (INTEGRITY_ERROR) instead of serving it as it was.
CREATE FUNCTION "arbiter_notify_altered"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arbiter_altered', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;

CREATE TRIGGER "events_altered" AFTER UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_altered"('game_id');

CREATE TRIGGER "tournament_events_altered" AFTER UPDATE OR DELETE ON "tournament_events"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_altered"('tournament_id');
