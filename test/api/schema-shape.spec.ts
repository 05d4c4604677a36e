import { buildSchema, type GraphQLField, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema, getNamedType, isListType, isNonNullType, isObjectType, isUnionType } from 'graphql';
import { buildSchemaSdl } from '../../scripts/print-schema.js';

/**
 * The schema's two shapes for integrators (issue 26): every mutation answers a union with
 * `Rejection` (one refusal model), and every list that can grow without bound is a Relay
 * connection (one pagination model). The schema is built as `npm run schema` builds it.
 */

const PER_SEAT = 'one entry per seat of a game (a game has at most 8)';
const PER_TURN = "one turn's worth, bounded by the game's rules";
const MATCH = 'the games, rounds or seasons of one match, bounded by its ruleset';
const RULESET = "a ruleset's enumeration (action types, warnings, thresholds, scopes), bounded by the code";
const TILES = 'tiles, pieces or hands of one game, bounded by its set';
const TOURNAMENT = 'bounded by the tournament limits (1000 participants, 64 rounds)';

/** Lists whose length is bounded, each with why. Anything else must be a connection. */
const BOUNDED: Readonly<Record<string, string>> = {
  'BackgammonActionTaken.moves': PER_TURN,
  'BackgammonBoard.absolute': 'the 26 points of a backgammon board',
  'BackgammonBoard.sides': PER_SEAT,
  'BackgammonGameResult.scoreAfter': PER_SEAT,
  'BackgammonLegalActions.plays': PER_TURN,
  'BackgammonLegalActions.resignLevels': RULESET,
  'BackgammonLegalActions.types': RULESET,
  'BackgammonOutcome.finalScore': PER_SEAT,
  'BackgammonOutcome.games': MATCH,
  'BackgammonPlay.moves': PER_TURN,
  'BackgammonPosition.dice': PER_TURN,
  'BackgammonPosition.games': MATCH,
  'BackgammonPosition.score': PER_SEAT,
  'BackgammonPosition.toAct': PER_SEAT,
  'BackgammonRulesetCheck.warnings': RULESET,
  'BackgammonSide.points': 'the 26 points of a backgammon board',
  'BackgammonTurn.dice': PER_TURN,
  'BackgammonTurn.moves': PER_TURN,
  'CerkeCapturedPile.hands': TILES,
  'CerkeCapturedPile.pieces': TILES,
  'CerkeDeclarationPending.hands': TILES,
  'CerkeGameResult.winners': PER_SEAT,
  'CerkeLegalActions.actions': PER_TURN,
  'CerkeOutcome.seasons': MATCH,
  'CerkeOutcome.winners': PER_SEAT,
  'CerkeRulesetCheck.warnings': RULESET,
  'CerkeSeasonResult.hands': TILES,
  'CerkeSeasonResult.steppingOnTam2': MATCH,
  'CerkeSideCast.sticks': PER_TURN,
  'CerkeState.board': TILES,
  'CerkeState.seasonResults': MATCH,
  'CerkeState.steppingOnTam2ThisSeason': MATCH,
  'CerkeState.toAct': PER_SEAT,
  'CerkeStepCompletionPending.completions': PER_TURN,
  'CerkeStickCast.casts': PER_SEAT,
  'ChanceDrawnDetail.values': PER_TURN,
  'ChickenFootActionTaken.penaltyTiles': TILES,
  'ChickenFootFinishedRound.dealtHands': TILES,
  'ChickenFootFinishedRound.handsLeft': TILES,
  'ChickenFootFinishedRound.order': TILES,
  'ChickenFootFinishedRound.roundWinners': PER_SEAT,
  'ChickenFootFinishedRound.scores': PER_SEAT,
  'ChickenFootFinishedRound.searchDraws': PER_SEAT,
  'ChickenFootFinishedRound.shuffle': TILES,
  'ChickenFootFinishedRound.yardLeft': TILES,
  'ChickenFootLegalActions.plays': PER_TURN,
  'ChickenFootOutcome.roundScores': MATCH,
  'ChickenFootOutcome.totals': PER_SEAT,
  'ChickenFootRound.handSizes': PER_SEAT,
  'ChickenFootRound.searchDraws': PER_SEAT,
  'ChickenFootRound.targets': TILES,
  'ChickenFootRoundEndNote.scores': PER_SEAT,
  'ChickenFootRulesetCheck.warnings': RULESET,
  'ChickenFootTable.finishedRounds': MATCH,
  'ChickenFootTable.hand': TILES,
  'ChickenFootTable.toAct': PER_SEAT,
  'ChickenFootTable.totals': PER_SEAT,
  'CrosstableCell.opponents': PER_SEAT,
  'CrosstableRow.cells': TOURNAMENT,
  'Fairness.clientSeeds': PER_SEAT,
  'Game.legalActions': PER_TURN,
  'Game.ratingChanges': PER_SEAT,
  'Game.seats': PER_SEAT,
  'Game.toAct': PER_SEAT,
  'GameClock.autoPlayed': PER_SEAT,
  'GameClock.pauseRequests': PER_SEAT,
  'GameClock.remainingMs': PER_SEAT,
  'GameClock.running': PER_SEAT,
  'GameClock.timedOut': PER_SEAT,
  'GameClock.vacationLeftMs': PER_SEAT,
  'GameCreated.tokens': PER_SEAT,
  'GameCreatedDetail.seatNames': PER_SEAT,
  'GameOutcome.points': PER_SEAT,
  'GameOutcome.winners': PER_SEAT,
  'GameStartedDetail.clientSeeds': PER_SEAT,
  'IssuedKey.scopes': RULESET,
  'Key.scopes': RULESET,
  'Me.keys': 'an account holds at most 100 keys (KEY_LIMIT)',
  'Me.scopes': RULESET,
  'MoveAccepted.events': "the events one move produced, bounded by the game's rules",
  'MoveAccepted.legalActions': PER_TURN,
  'Player.ratings': 'one per game kind and time-control family the player played rated games in (docs/ratings.md)',
  'Query.backgammonLegalPlays': PER_TURN,
  'Query.backgammonPlays': PER_TURN,
  'Query.cerkeLegalActions': PER_TURN,
  'Query.gameKinds': 'the games this referee was built with',
  'Query.keys': 'an account holds at most 100 keys (KEY_LIMIT)',
  'Participant.requestedByes': TOURNAMENT,
  'ParticipantsRefused.rows': 'the rows of one bulk registration, at most 1000',
  'ParticipantsRegistered.participants': 'the rows of one bulk registration, at most 1000',
  'StandingRow.tieBreaks': "the organizer's tie-breaks, a configured few",
  'Tournament.crosstable': TOURNAMENT,
  'Tournament.games': TOURNAMENT,
  'Tournament.participants': TOURNAMENT,
  'Tournament.rounds': TOURNAMENT,
  'Tournament.standings': TOURNAMENT,
  'TournamentBoard.games': 'the games of one knockout match, bounded by its format',
  'TournamentBoard.seats': PER_SEAT,
  'TournamentGame.reports': PER_SEAT,
  'TournamentGame.seats': PER_SEAT,
  'TournamentGameResult.gamePoints': PER_SEAT,
  'TournamentGameResult.kinds': PER_SEAT,
  'TournamentGameResult.ranking': PER_SEAT,
  'TournamentRound.absent': TOURNAMENT,
  'TournamentRound.boards': TOURNAMENT,
  'TournamentRound.byes': TOURNAMENT,
  'TournamentRound.requestedByes': TOURNAMENT,
  'TournamentSchedule.checkedIn': TOURNAMENT,
  'TournamentRound.warnings': 'what one pairing could not respect, bounded by its boards',
  'TournamentRulesetCheck.warnings': RULESET,
  'Webhook.events': RULESET,
  'Webhook.lowTimeThresholdsSeconds': RULESET,
};

const unwrap = (t: GraphQLOutputType): GraphQLOutputType => (isNonNullType(t) ? t.ofType : t);

/** A Relay connection type: `edges` of edges with `cursor` and `node`, and `pageInfo: PageInfo!`. */
function isConnection(type: GraphQLObjectType): boolean {
  const { edges, pageInfo } = type.getFields();
  if (!edges || !pageInfo || String(pageInfo.type) !== 'PageInfo!' || !isListType(unwrap(edges.type))) return false;
  const edge = getNamedType(edges.type);
  return isObjectType(edge) && 'cursor' in edge.getFields() && 'node' in edge.getFields();
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = buildSchema(await buildSchemaSdl());
}, 120_000);

describe('every mutation', () => {
  it('answers a union of its success and Rejection (refusals are answers, not errors)', () => {
    const mutation = schema.getMutationType();
    if (!mutation) throw new Error('the schema has no mutations');
    const without = Object.values(mutation.getFields())
      .filter((f) => {
        const type = unwrap(f.type);
        return !(isUnionType(type) && type.getTypes().some((t) => t.name === 'Rejection'));
      })
      .map((f) => `${f.name}: ${f.type}`);
    expect(without).toEqual([]);
  });
});

describe('every list', () => {
  const lists = (): string[] => {
    const found: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !isObjectType(type) || isConnection(type)) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) if (isListType(unwrap(field.type))) found.push(`${type.name}.${field.name}`);
    }
    return found;
  };

  it('is a Relay connection, or bounded (the allowlist says why)', () => {
    expect(lists().filter((name) => !(name in BOUNDED))).toEqual([]);
  });

  it('names in the allowlist only lists of the schema (none left over)', () => {
    const present = new Set(lists());
    expect(Object.keys(BOUNDED).filter((name) => !present.has(name))).toEqual([]);
  });
});
