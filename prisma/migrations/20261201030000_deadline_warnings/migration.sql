-- Low-time warnings (webhooks' TIME_RUNNING_LOW, src/referee/application/deadlines.ts): `warn_at`
-- is when a running seat of the game next crosses a threshold one of its registrations asked for,
-- as of the row's version; null when none will. Like the rest of the row it is derived data,
-- written in the same statement as the game's events. The worker claims a row once
-- LEAST(due_at, warn_at) has come (a deadline to time out, or a warning to tell), so that is what
-- the index orders, in place of due_at alone.
ALTER TABLE "deadlines" ADD COLUMN "warn_at" TIMESTAMPTZ(3);
DROP INDEX "deadlines_due_at_idx";
CREATE INDEX "deadlines_next_at_idx" ON "deadlines" ((LEAST("due_at", "warn_at")));
