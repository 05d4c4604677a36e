import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { JSONScalar } from '../../api/json.scalar.js';
import { TimeControl } from '../../api/models.js';
import { TournamentSchedule } from './schedule.js';
import { EncounterResult, ResultSource, RoundEntryKind, SeatResultKind, TournamentFormat, TournamentStatus } from './enums.js';

@ObjectType({ description: 'A participant named where it plays: its id, registration number and name' })
export class ParticipantRef {
  @Field(() => ID, { description: "The participant's id" }) id: string;
  @Field(() => Int, { description: 'Its registration number: 1, 2, 3... in order of registration' }) registrationNo: number;
  @Field({ description: 'Its display name' }) name: string;
}

@ObjectType({ description: "A tournament's registered entrant" })
export class Participant {
  @Field(() => ID, { description: "The participant's id" }) id: string;
  @Field(() => Int, { description: '1, 2, 3... in order of registration, never reused' }) registrationNo: number;
  @Field({ description: 'Its display name' }) name: string;
  @Field(() => Int, { description: 'Its rating; 0 when unrated' }) rating: number;
  @Field(() => Int, { description: 'The first round it is paired in: 1 unless it entered late' }) entryRound: number;
  @Field(() => Int, { nullable: true, description: 'Withdrawn: not paired from the round after this one on; null while it plays on' }) withdrawnAfterRound: number | null;
  @Field(() => String, { nullable: true, description: "The organizer's own id for it (registerParticipants), if given" }) externalId: string | null;
  @Field(() => [Int], { description: 'Rounds it asked a bye for when it registered (P2.6), given as each is paired' }) requestedByes: number[];
}

@ObjectType({ description: 'The result a tournament game counts with' })
export class TournamentGameResult {
  @Field(() => ResultSource, { description: "The refereed game's own outcome (GAME) or the organizer's entry (ORGANIZER)" }) source: ResultSource;
  @Field(() => [SeatResultKind], { description: "How each seat's game counted, in the game's seat order" }) kinds: SeatResultKind[];
  @Field(() => [String], {
    nullable: 'items',
    description: 'Game points per seat as exact numbers ("3", "1/2"): backgammon points won, Cerke final points, Chicken Foot pips; null for a seat that did not play',
  })
  gamePoints: (string | null)[];
  @Field(() => [[Int]], { description: 'The seats that played, best first, tied seats grouped: a 2-seat win is [[winner], [loser]], a draw [[0, 1]]; empty for forfeits' })
  ranking: number[][];
  @Field(() => ID, { nullable: true, description: 'The over-the-board record attached to the result, imported as a game of its own' }) recordGameId: string | null;
  @Field(() => String, { nullable: true, description: "The organizer's reason (a forfeit, a correction)" }) reason: string | null;
}

@ObjectType({ description: 'A game a round scheduled, and its result once it has one' })
export class TournamentGame {
  @Field(() => ID, { description: "The game id (query it with `game`, play it with the participants' tokens)" }) gameId: string;
  @Field(() => [ParticipantRef], { description: 'The participants in seat order' }) seats: ParticipantRef[];
  @Field(() => TournamentGameResult, { nullable: true, description: 'The result it counts with; null while it waits for one' }) result: TournamentGameResult | null;
  @Field(() => [ResultReport], { description: "The participants' reports of its result (docs/rules/tournaments.md R3.10), one per participant that reported" }) reports: ResultReport[];
  @Field({ description: 'Its reports disagree and the organizer has not settled the dispute yet (R3.11)' }) disputed: boolean;
}

@ObjectType({ description: "A participant's report of a game's result (R3.10)" })
export class ResultReport {
  @Field(() => ParticipantRef, { description: 'Who reported' }) participant: ParticipantRef;
  @Field(() => TournamentGameResult, { description: 'The result it reported (source ORGANIZER: an entered result)' }) result: TournamentGameResult;
}

@ObjectType({ description: 'A board of a round: a pairing, a table or a knockout match, with its games' })
export class TournamentBoard {
  @Field(() => Int, { description: 'The board number, from 1' }) board: number;
  @Field(() => [ParticipantRef], { description: 'The participants in seat order of the first game (one participant: a knockout bye)' }) seats: ParticipantRef[];
  @Field({ description: 'Set by the organizer (manual pairings or tables)' }) manual: boolean;
  @Field(() => ParticipantRef, { nullable: true, description: 'A pairing with a withdrawn participant: no game, this participant forfeits' }) walkover: ParticipantRef | null;
  @Field(() => ParticipantRef, { nullable: true, description: "Knockout: the match's winner, once decided (null also when both are out: see `complete`)" }) winner: ParticipantRef | null;
  @Field({ description: 'Every game of the board has its result (knockout: the match is decided)' }) complete: boolean;
  @Field(() => [TournamentGame], { description: 'Its games (a knockout match may have several); empty for a bye or a walkover' }) games: TournamentGame[];
}

@ObjectType({ description: 'A paired round' })
export class TournamentRound {
  @Field(() => Int, { description: 'The round number, from 1' }) round: number;
  @Field({ description: 'Every board has its result' }) complete: boolean;
  @Field(() => [TournamentBoard], { description: 'Its boards, board 1 first' }) boards: TournamentBoard[];
  @Field(() => [ParticipantRef], { description: 'Pairing-allocated byes' }) byes: ParticipantRef[];
  @Field(() => ParticipantRef, { nullable: true, description: 'Round-robin with an odd number: the participant paired with the dummy (no game, the round counts for nothing)' })
  rest: ParticipantRef | null;
  @Field(() => [ParticipantRef], { description: 'Participants the organizer set absent for the round' }) absent: ParticipantRef[];
  @Field(() => [ParticipantRef], { description: 'Participants given the byes they requested' }) requestedByes: ParticipantRef[];
  @Field(() => [String], { description: 'What the pairing could not respect (e.g. a repeated pairing), for the organizer' }) warnings: string[];
}

@ObjectType({ description: 'A tie-break value of a standings row' })
export class TieBreakValue {
  @Field({ description: 'The tie-break: BH, BH-C1, SB, DE, WON, GP or LOTS' }) name: string;
  @Field(() => String, {
    nullable: true,
    description: 'Its exact value ("7/2"); null where it does not apply (GP without a played game, DE outside a tied group whose members all met, LOTS where no lot was drawn)',
  })
  value: string | null;
}

@ObjectType({ description: 'One participant in the standings' })
export class StandingRow {
  @Field(() => Int, { description: 'The rank, from 1; shared by participants still tied after every tie-break (knockout: the place)' }) rank: number;
  @Field(() => ID, { description: "The participant's id" }) participantId: string;
  @Field(() => Int, { description: "The participant's registration number" }) registrationNo: number;
  @Field({ description: "The participant's name" }) name: string;
  @Field(() => String, { nullable: true, description: 'Tournament points, exact ("5/2"); null in a knockout, ranked by placings' }) tp: string | null;
  @Field(() => [TieBreakValue], { description: "The tie-breaks in the organizer's order (none in a knockout)" }) tieBreaks: TieBreakValue[];
}

@ObjectType({ description: "One participant's round in the crosstable" })
export class CrosstableCell {
  @Field(() => Int, { description: 'The round' }) round: number;
  @Field(() => RoundEntryKind, { description: 'What the round was for the participant' }) kind: RoundEntryKind;
  @Field(() => [ParticipantRef], { description: 'The opponent (2-seat) or the table-mates who played; empty for byes, absences and REST' }) opponents: ParticipantRef[];
  @Field(() => Int, { nullable: true, description: 'The seat played (a played game only)' }) seat: number | null;
  @Field(() => EncounterResult, { nullable: true, description: 'A played 2-seat game: won, drawn or lost' }) result: EncounterResult | null;
  @Field({ description: 'Tournament points earned in the round, exact' }) tp: string;
}

@ObjectType({ description: "One participant's row of the crosstable" })
export class CrosstableRow {
  @Field(() => ID, { description: "The participant's id" }) participantId: string;
  @Field(() => Int, { description: "The participant's registration number" }) registrationNo: number;
  @Field({ description: "The participant's name" }) name: string;
  @Field(() => [CrosstableCell], { description: 'Its rounds, round 1 first' }) cells: CrosstableCell[];
}

@ObjectType({ description: 'A tournament: its configuration, participants, rounds and results; standings and crosstable on demand' })
export class Tournament {
  @Field(() => ID, { description: 'The tournament id' }) id: string;
  @Field({ description: 'Its name' }) name: string;
  @Field({ description: 'The game kind it plays (one of gameKinds)' }) kind: string;
  @Field(() => TournamentFormat, { description: 'Its format' }) format: TournamentFormat;
  @Field(() => TournamentStatus, { description: 'REGISTERING, RUNNING or FINISHED' }) status: TournamentStatus;
  @Field(() => Int, { description: 'seq of its last event' }) version: number;
  @Field({ description: 'Hash of the event at `version`: the head its bundle must end at' }) headHash: string;
  @Field({ description: 'SHA-256 of the secret seed its lots are drawn from, published at creation' }) seedCommitment: string;
  @Field(() => String, { nullable: true, description: 'The seed, revealed when the tournament finishes (check it against seedCommitment); null until then' }) seed: string | null;
  @Field(() => JSONScalar, { description: 'The configuration as recorded at creation, defaults filled in (points as exact numbers)' }) config: unknown;
  @Field(() => TimeControl, { nullable: true, description: 'The clock every game of the tournament is created with; null: none' }) timeControl: TimeControl | null;
  @Field(() => Int, { nullable: true, description: 'Rounds to play: configured (Swiss, tables) or fixed when round 1 is paired (round-robin, knockout)' }) totalRounds: number | null;
  @Field(() => Int, { description: 'Rounds whose every board has its result: standings count these' }) completedRounds: number;
  // These three grow with the event: a GraphQL answer builds them only when a query asks for them (TournamentsResolver), REST always.
  @Field(() => [Participant], { description: 'Participants in registration order' }) participants?: Participant[];
  @Field(() => [TournamentRound], { description: 'The paired rounds, round 1 first' }) rounds?: TournamentRound[];
  @Field(() => [ID], { description: 'The ids of every game its rounds scheduled' }) games?: string[];
  @Field({ description: 'When it was created' }) createdAt: Date;
  @Field(() => TournamentSchedule, { nullable: true, description: 'Its schedule and where its timed steps stand; null: the organizer runs every step' }) schedule: TournamentSchedule | null;
}

@ObjectType({ description: 'A tournament in a list' })
export class TournamentSummary {
  @Field(() => ID, { description: 'The tournament id' }) id: string;
  @Field({ description: 'Its name' }) name: string;
  @Field({ description: 'The game kind it plays' }) kind: string;
  @Field(() => TournamentFormat, { description: 'Its format' }) format: TournamentFormat;
  @Field(() => TournamentStatus, { description: 'REGISTERING, RUNNING or FINISHED' }) status: TournamentStatus;
  @Field({ description: 'When it was created' }) createdAt: Date;
}

@ObjectType({ description: "One event of a tournament's hash-chained log" })
export class TournamentEvent {
  @Field(() => Int, { description: 'Its position in the log, from 1; the tournament version after it' }) seq: number;
  @Field({
    description:
      "The event type: TournamentCreated, ParticipantRegistered, ParticipantWithdrawn, RoundSettingsSet, LotsDrawn, RoundPaired, GamesScheduled, ResultRecorded, ResultCorrected, TournamentFinished; a scheduled tournament's RegistrationOpened, RegistrationClosed, CheckInOpened, ParticipantCheckedIn, CheckInClosed, RoundScheduled",
  })
  type: string;
  @Field(() => Int, { nullable: true, description: "Who caused it: -1 the organizer, a participant's registration number, null the referee" }) actor: number | null;
  @Field(() => JSONScalar, { description: 'The payload as stored and hashed' }) payload: unknown;
  @Field({ description: 'When it was stored (the instant the hash covers, to the millisecond)' }) createdAt: Date;
  @Field({ description: 'SHA-256 (hex) of prevHash and the canonical JSON of the event: the hash chain' }) hash: string;
  @Field({ description: "The previous event's hash (64 zeros for the first event), hex" }) prevHash: string;
}
