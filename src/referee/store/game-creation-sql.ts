import type { NewGameRows } from './event-store.js';
import { checkWriters, type ProjectionWriters, projectionParts, type RawTransaction } from './projections.js';
import { eventRow, insertStreamEventsSql } from './stream-events-sql.js';

/**
 * Events written by one statement when a game starts with many (an imported record): one
 * statement of a hundred thousand would hold the process for seconds (encoding its parameter, and
 * on PGlite, which runs in this thread, executing it); between two of these, others' requests run.
 * Games created together (a tournament's pairing) share statements up to the same number of events.
 */
export const EVENTS_PER_STATEMENT = 200;

/** A transaction storing `events` events may take about a millisecond each, and at least 10 s. */
export const transactionTimeout = (events: number) => Math.max(10_000, events);

/**
 * Games' rows, seats and first events in one statement ($1, $2, $3: JSON rows, each naming its
 * game), with the rows their creation implies (each projection's CTEs, on parameters after $3):
 * one game created on its own, or many of a tournament's pairing at once.
 */
const createSql = (projections: readonly string[]) => `
WITH game AS (
  INSERT INTO games (id, kind, status, version, ruleset, ruleset_hash, seed_commitment, server_seed, random_source,
                     supplied_chance, imported, result, head_hash, tournament_id, round, board)
  SELECT g.id, g.kind, g.status, g.version, g.ruleset, g.ruleset_hash, g.seed_commitment, g.server_seed, g.random_source,
         g.supplied_chance, g.imported, g.result, g.head_hash, g.tournament_id, g.round, g.board
  FROM jsonb_to_recordset($1::jsonb) AS g(id text, kind text, status text, version int, ruleset jsonb, ruleset_hash text, seed_commitment text,
                                          server_seed text, random_source text, supplied_chance jsonb, imported boolean, result jsonb,
                                          head_hash text, tournament_id text, round int, board int)
), seats AS (
  INSERT INTO seats (game_id, index, name, token_hash, client_seed, joined_at, participant_id, player_id)
  SELECT t.game_id, t.index, t.name, t.token_hash, t.client_seed,
         CASE WHEN t.token_hash IS NULL AND t.participant_id IS NULL AND t.player_id IS NULL THEN NULL ELSE now() END, t.participant_id, t.player_id
  FROM jsonb_to_recordset($2::jsonb) AS t(game_id text, index int, name text, token_hash text, client_seed text, participant_id text, player_id text)
), ins AS (${INSERT_EVENTS_SQL.replace('$1', '$3')}
  RETURNING 1
)${projections.map((p) => `, ${p}`).join('')}
SELECT count(*) FROM ins`;

const INSERT_EVENTS_SQL = insertStreamEventsSql('events', 'game_id');

/** The texts of the creation statements by name (see createStatement): a name always has the same text. */
const createTexts = new Map<string, string>();

/** The statement creating games with their first events (at most EVENTS_PER_STATEMENT each) and the rows they imply. */
export function createStatement(writers: ProjectionWriters, games: readonly NewGameRows[]) {
  const values = createValues(games);
  const projected = projectionParts(
    writers,
    games.flatMap((g) => g.consequences ?? []),
    values,
  );
  const name = `create-games${projected.name}`;
  let text = createTexts.get(name);
  if (text === undefined) createTexts.set(name, (text = createSql(projected.ctes)));
  return { name, text, values };
}

/**
 * Games' rows, seats and events inside the caller's transaction, with the rows their creation
 * implies: games with few events share a statement (up to EVENTS_PER_STATEMENT events), a game
 * with many (an imported record) has its first statement and then EVENTS_PER_STATEMENT events a
 * statement. All stored together or, if any statement fails, none.
 */
export async function insertGames(tx: RawTransaction, writers: ProjectionWriters, games: readonly NewGameRows[]): Promise<void> {
  checkWriters(
    writers,
    games.flatMap((g) => g.consequences ?? []),
  );
  let batch: NewGameRows[] = [];
  let events = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const { text, values } = createStatement(writers, batch);
    await tx.$executeRawUnsafe(text, ...values);
    batch = [];
    events = 0;
  };
  for (const g of games) {
    const first = g.events.slice(0, EVENTS_PER_STATEMENT);
    if (events + first.length > EVENTS_PER_STATEMENT) await flush();
    batch.push({ ...g, events: first });
    events += first.length;
    if (g.events.length <= EVENTS_PER_STATEMENT) continue;
    await flush();
    for (let from = EVENTS_PER_STATEMENT; from < g.events.length; from += EVENTS_PER_STATEMENT)
      await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(g.events.slice(from, from + EVENTS_PER_STATEMENT).map((e) => eventRow(e, g.row.id))));
  }
  await flush();
}

/** The parameters of createSql: the games', the seats' and the events' rows. */
function createValues(games: readonly NewGameRows[]): unknown[] {
  return [
    JSON.stringify(
      games.map(({ row: g }) => ({
        id: g.id,
        kind: g.kind,
        status: g.status,
        version: g.version,
        ruleset: g.ruleset,
        ruleset_hash: g.rulesetHash,
        seed_commitment: g.seedCommitment,
        server_seed: g.serverSeed,
        random_source: g.randomSource,
        supplied_chance: g.suppliedChance ?? null,
        imported: g.imported,
        result: g.result ?? null,
        head_hash: g.headHash,
        tournament_id: g.tournamentId ?? null,
        round: g.round ?? null,
        board: g.board ?? null,
      })),
    ),
    JSON.stringify(
      games.flatMap(({ row, seats }) =>
        seats.map((s) => ({
          game_id: row.id,
          index: s.index,
          name: s.name,
          token_hash: s.tokenHash,
          client_seed: s.clientSeed,
          participant_id: s.participantId ?? null,
          player_id: s.playerId ?? null,
        })),
      ),
    ),
    JSON.stringify(games.flatMap(({ row, events }) => events.map((e) => eventRow(e, row.id)))),
  ];
}
