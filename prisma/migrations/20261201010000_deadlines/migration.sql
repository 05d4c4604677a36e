-- Time controls: the next deadline of each running game with a clock, so that a seat's time runs
-- out on its own (src/referee/application/deadlines.ts). Derived data: the game's events are the
-- truth, and a row that was lost or left behind is recomputed from them. `version` is the game
-- version the row was computed at: an older computation never overwrites a newer one. A row
-- without `due_at` says that no seat's time runs (the clocks are paused) as of that version.
-- `claimed_until`: an instance is deciding the timeout; others leave the row alone until then.
-- No foreign key: a row of a game that is gone is dropped by the worker like any stale row.
CREATE TABLE "deadlines" (
  "game_id" TEXT PRIMARY KEY,
  "seat" INTEGER,
  "due_at" TIMESTAMPTZ(3),
  "version" INTEGER NOT NULL,
  "claimed_until" TIMESTAMPTZ(3)
);
CREATE INDEX "deadlines_due_at_idx" ON "deadlines" ("due_at");
