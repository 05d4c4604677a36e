-- Every stored move of a game (a new game, a join, an append) notifies `arbiter_appended` with
-- "<game id> <version>" when its transaction commits, so every instance on this database can
-- catch its cached copy up and tell its subscribers (PostgreSQL LISTEN/NOTIFY; no other server).
CREATE FUNCTION "arbiter_notify_appended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arbiter_appended', NEW."id" || ' ' || NEW."version");
  RETURN NULL;
END
$$;

CREATE TRIGGER "games_appended" AFTER INSERT OR UPDATE OF "version" ON "games"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_appended"();
