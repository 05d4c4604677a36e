-- A tournament's games still played: its catch-up reads their statuses on every command that
-- needs every result (docs/scaling.md, "A tournament at scale"), and must not read the games it
-- finished, whose number grows with every round.
CREATE INDEX "games_tournament_playing_idx" ON "games" ("tournament_id") WHERE "tournament_id" IS NOT NULL AND "status" <> 'FINISHED';
