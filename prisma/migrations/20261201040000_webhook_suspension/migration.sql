-- Receivers that keep timing out (issue 24, finding 7): `timeouts` counts a registration's
-- attempts in a row that got no answer in time (any answer, or a refused connection, sets it
-- back to 0); until `paused_until` none of its messages is claimed (a backoff that doubles with
-- each timeout); after 5 in a row it is suspended (`suspended_at`) until its owner resumes it.
ALTER TABLE "webhooks" ADD COLUMN "timeouts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "webhooks" ADD COLUMN "paused_until" TIMESTAMPTZ(3);
ALTER TABLE "webhooks" ADD COLUMN "suspended_at" TIMESTAMPTZ(3);
