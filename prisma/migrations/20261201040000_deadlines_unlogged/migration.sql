-- The deadlines table is derived data (the games' events are the truth) and is written with every
-- move of a game with a clock: writing it to the WAL as well was about half of what a clock cost
-- the database per move (bench/deadlines.ts). Unlogged, a crash of PostgreSQL empties it (and a
-- standby never has it): the deadline worker's sweep, at start-up and every DEADLINE_SWEEP_MS,
-- recomputes the row of every running game with a clock that has none, and a deadline that passed
-- meanwhile is applied with its own time, as after any downtime.
ALTER TABLE "deadlines" SET UNLOGGED;
-- A move that leaves the row's times as they were (see deadlineCtes) updates only its version:
-- room in the page lets that new row version stay beside the old one, without touching the index.
ALTER TABLE "deadlines" SET (fillfactor = 50);
