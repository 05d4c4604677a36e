import { registerEnumType } from '@nestjs/graphql';

/** The seven formats (docs/rules/tournaments.md); the API's names for the configuration's words. */
export enum TournamentFormat {
  ROUND_ROBIN = 'ROUND_ROBIN',
  DOUBLE_ROUND_ROBIN = 'DOUBLE_ROUND_ROBIN',
  SWISS = 'SWISS',
  KNOCKOUT = 'KNOCKOUT',
  DOUBLE_ELIMINATION = 'DOUBLE_ELIMINATION',
  GROUPS_KNOCKOUT = 'GROUPS_KNOCKOUT',
  TABLES = 'TABLES',
}
registerEnumType(TournamentFormat, {
  name: 'TournamentFormat',
  description: 'How participants are paired and ranked',
  valuesMap: {
    ROUND_ROBIN: { description: 'Everyone meets everyone once (2-seat games); ranked by standings' },
    DOUBLE_ROUND_ROBIN: { description: 'Everyone meets everyone twice, seats swapped (2-seat games); ranked by standings' },
    SWISS: { description: 'A set number of rounds, each pairing participants of equal score (2-seat games); ranked by standings' },
    KNOCKOUT: { description: 'Matches in a bracket, the loser out (2-seat games); ranked by placings' },
    GROUPS_KNOCKOUT: { description: 'Round-robin groups seeded snake-wise, then a knockout of the best of each group (2-seat games); ranked by placings' },
    DOUBLE_ELIMINATION: { description: "A winners' and a losers' bracket, out after a second lost match, then a grand final (2-seat games); ranked by placings" },
    TABLES: { description: 'A set number of rounds of tables of 3 or more seats (Chicken Foot); ranked by standings' },
  },
});

export enum TournamentStatus {
  REGISTERING = 'REGISTERING',
  RUNNING = 'RUNNING',
  FINISHED = 'FINISHED',
}
registerEnumType(TournamentStatus, {
  name: 'TournamentStatus',
  description: 'Where a tournament is: REGISTERING, RUNNING or FINISHED',
  valuesMap: {
    REGISTERING: { description: 'No round is paired yet; participants register' },
    RUNNING: { description: 'Round 1 is paired and the tournament is not finished' },
    FINISHED: { description: 'Finished: the standings are final and the seed is revealed' },
  },
});

/** How one seat's game counted (R3.5). */
export enum SeatResultKind {
  PLAYED = 'PLAYED',
  FORFEIT_WIN = 'FORFEIT_WIN',
  FORFEIT_LOSS = 'FORFEIT_LOSS',
  DOUBLE_FORFEIT = 'DOUBLE_FORFEIT',
}
registerEnumType(SeatResultKind, {
  name: 'SeatResultKind',
  description: "How one seat's game counted",
  valuesMap: {
    PLAYED: { description: 'The game was played; the ranking and game points tell how it went' },
    FORFEIT_WIN: { description: 'Won by forfeit (the opponent did not play)' },
    FORFEIT_LOSS: { description: 'Lost by forfeit (did not play)' },
    DOUBLE_FORFEIT: { description: 'Neither side played: both lose' },
  },
});

export enum ResultSource {
  GAME = 'GAME',
  ORGANIZER = 'ORGANIZER',
}
registerEnumType(ResultSource, {
  name: 'ResultSource',
  description: 'Where a tournament game result came from',
  valuesMap: {
    GAME: { description: "The refereed game's own outcome, taken when it ended" },
    ORGANIZER: { description: 'Entered by the organizer: an over-the-board result or a forfeit' },
  },
});

/** R3.1: what one participant's round was. */
export enum RoundEntryKind {
  PLAYED = 'PLAYED',
  FORFEIT_WIN = 'FORFEIT_WIN',
  FORFEIT_LOSS = 'FORFEIT_LOSS',
  DOUBLE_FORFEIT = 'DOUBLE_FORFEIT',
  PAB = 'PAB',
  REQUESTED_BYE = 'REQUESTED_BYE',
  ABSENT = 'ABSENT',
  REST = 'REST',
}
registerEnumType(RoundEntryKind, {
  name: 'RoundEntryKind',
  description: "What one participant's round was",
  valuesMap: {
    PLAYED: { description: 'Played a game' },
    FORFEIT_WIN: { description: 'Won by forfeit (or by a walkover against a withdrawn participant)' },
    FORFEIT_LOSS: { description: 'Lost by forfeit' },
    DOUBLE_FORFEIT: { description: 'Neither side played' },
    PAB: { description: 'A pairing-allocated bye (the odd one out)' },
    REQUESTED_BYE: { description: 'A bye the participant asked for' },
    ABSENT: { description: 'Absent: before a late entry, after withdrawal, or set absent by the organizer' },
    REST: { description: 'Round-robin with an odd number: paired with the dummy; the round counts for nothing' },
  },
});

/** A 2-seat game's result for one participant. */
export enum EncounterResult {
  WIN = 'WIN',
  DRAW = 'DRAW',
  LOSS = 'LOSS',
}
registerEnumType(EncounterResult, {
  name: 'EncounterResult',
  description: "A played 2-seat game's result for one participant",
  valuesMap: {
    WIN: { description: 'Won' },
    DRAW: { description: 'Drawn' },
    LOSS: { description: 'Lost' },
  },
});
