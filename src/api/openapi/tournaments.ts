/** The `tournaments` routes: public reads of a tournament, its standings, games, events and bundle (its commands: tournament-commands.ts). */
import { commonRefusals, json, type Parameter, type Paths, ref, type Schema } from './builders.js';
import { freeObject } from './game-json.js';

/** The tournament routes' path parameter and the refusals every one of them may answer (all are public reads). */
export const tournamentId: Parameter = { name: 'id', in: 'path', required: true, description: 'The tournament id', schema: { type: 'string', pattern: '^t-[A-Za-z0-9_-]{1,64}$' } };
export const tournamentRefusals = {
  '404': { description: '`NOT_FOUND`: no such tournament', content: json(ref('schemas', 'Error')) },
  '422': ref('responses', 'Refused'),
  ...commonRefusals,
};
const exactNumber: Schema = { type: 'string', pattern: '^-?[0-9]+(/[0-9]+)?$', description: 'An exact number: "3", "3/2"' };
const gameResult: Schema = {
  type: ['object', 'null'],
  description: 'The result the game counts with; null while it waits for one',
  required: ['source', 'kinds', 'gamePoints', 'ranking', 'recordGameId', 'reason'],
  properties: {
    source: { type: 'string', enum: ['GAME', 'ORGANIZER'] },
    kinds: { type: 'array', items: { type: 'string', enum: ['PLAYED', 'FORFEIT_WIN', 'FORFEIT_LOSS', 'DOUBLE_FORFEIT'] }, description: 'Per seat' },
    gamePoints: { type: 'array', items: { type: ['string', 'null'] }, description: 'Per seat, exact; null for a seat that did not play' },
    ranking: { type: 'array', items: { type: 'array', items: { type: 'integer' } }, description: 'Seats that played, best first, tied seats grouped' },
    recordGameId: { type: ['string', 'null'], description: 'The attached over-the-board record, imported as a game' },
    reason: { type: ['string', 'null'] },
  },
};
const standingRow: Schema = {
  type: 'object',
  required: ['rank', 'participantId', 'registrationNo', 'name', 'tp', 'tieBreaks'],
  properties: {
    rank: { type: 'integer', minimum: 1, description: 'Shared by participants still tied (knockout: the place)' },
    participantId: { type: 'string' },
    registrationNo: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    tp: { ...exactNumber, type: ['string', 'null'], description: 'Tournament points; null in a knockout' },
    tieBreaks: {
      type: 'array',
      items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string', examples: ['BH-C1'] }, value: { type: ['string', 'null'] } } },
    },
  },
};

/** A participant named where it plays. */
const participantRef: Schema = {
  type: 'object',
  required: ['id', 'registrationNo', 'name'],
  properties: { id: { type: 'string' }, registrationNo: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
};
const participantRefs = (description: string): Schema => ({ type: 'array', items: participantRef, description });
const nullableRef = (description: string): Schema => ({ oneOf: [participantRef, { type: 'null' }], description });
/** A paired round, as GraphQL's TournamentRound. */
const roundSchema: Schema = {
  type: 'object',
  required: ['round', 'complete', 'boards', 'byes', 'rest', 'absent', 'requestedByes', 'warnings'],
  properties: {
    round: { type: 'integer', minimum: 1 },
    complete: { type: 'boolean', description: 'Every board has its result' },
    boards: {
      type: 'array',
      items: {
        type: 'object',
        description: 'A pairing, a table or a knockout match, with its games',
        required: ['board', 'seats', 'manual', 'walkover', 'winner', 'complete', 'games'],
        properties: {
          board: { type: 'integer', minimum: 1 },
          seats: participantRefs('In seat order of the first game (one participant: a knockout bye)'),
          manual: { type: 'boolean', description: 'Set by the organizer' },
          walkover: nullableRef('A pairing with a withdrawn participant: no game, this participant forfeits'),
          winner: nullableRef("Knockout: the match's winner, once decided"),
          complete: { type: 'boolean' },
          games: {
            type: 'array',
            items: { type: 'object', required: ['gameId', 'seats', 'result'], properties: { gameId: { type: 'string' }, seats: participantRefs('In seat order'), result: gameResult } },
          },
        },
      },
    },
    byes: participantRefs('Pairing-allocated byes'),
    rest: nullableRef('Round-robin with an odd number: the participant paired with the dummy'),
    absent: participantRefs('Set absent by the organizer for the round'),
    requestedByes: participantRefs('Given the byes they requested'),
    warnings: { type: 'array', items: { type: 'string' }, description: 'What the pairing could not respect, for the organizer' },
  },
};
/** One participant's row of the crosstable, as GraphQL's CrosstableRow. */
const crosstableRow: Schema = {
  type: 'object',
  required: ['participantId', 'registrationNo', 'name', 'cells'],
  properties: {
    participantId: { type: 'string' },
    registrationNo: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    cells: {
      type: 'array',
      description: 'Its rounds, round 1 first',
      items: {
        type: 'object',
        required: ['round', 'kind', 'opponents', 'seat', 'result', 'tp'],
        properties: {
          round: { type: 'integer', minimum: 1 },
          kind: { type: 'string', enum: ['PLAYED', 'FORFEIT_WIN', 'FORFEIT_LOSS', 'DOUBLE_FORFEIT', 'PAB', 'REQUESTED_BYE', 'ABSENT', 'REST'] },
          opponents: participantRefs('The opponent or the table-mates who played; empty for byes, absences and REST'),
          seat: { type: ['integer', 'null'], description: 'The seat played (a played game only)' },
          result: { type: ['string', 'null'], enum: ['WIN', 'DRAW', 'LOSS', null], description: 'A played 2-seat game' },
          tp: { ...exactNumber, description: 'Tournament points earned in the round' },
        },
      },
    },
  },
};

export const tournamentPaths: Paths = {
  '/api/tournaments/{id}': {
    get: {
      operationId: 'getTournament',
      summary: 'A tournament as the GraphQL `tournament` query has it, with its standings and crosstable after the completed rounds',
      description: "Its finished games' results are recorded first. The seed is null until the tournament finishes.",
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: [],
      responses: {
        '200': {
          description: 'The tournament',
          content: json({
            type: 'object',
            required: ['id', 'name', 'kind', 'format', 'status', 'version', 'headHash', 'seedCommitment', 'seed', 'config', 'participants', 'rounds', 'games', 'standings', 'crosstable'],
            properties: {
              id: { type: 'string' },
              name: { type: 'string' },
              kind: { type: 'string', examples: ['backgammon'] },
              format: { type: 'string', enum: ['ROUND_ROBIN', 'DOUBLE_ROUND_ROBIN', 'SWISS', 'KNOCKOUT', 'DOUBLE_ELIMINATION', 'GROUPS_KNOCKOUT', 'TABLES'] },
              status: { type: 'string', enum: ['REGISTERING', 'RUNNING', 'FINISHED'] },
              version: { type: 'integer' },
              headHash: { type: 'string' },
              seedCommitment: { type: 'string' },
              seed: { type: ['string', 'null'], description: 'Revealed when the tournament finishes' },
              config: freeObject(
                'The configuration as recorded at creation (docs/organizing.md): `name`, `kind`, `ruleset` (complete, as the games have it), `format`, `rounds`, `points`, `byePoints`, `tieBreaks`, ' +
                  'the knockout and tables settings, `openRegistration`, `selfWithdrawal`, `rated` (true: its games are rated), `timeControl` (stored form, in ms; absent: no clock), ...',
              ),
              timeControl: { oneOf: [ref('schemas', 'TimeControl'), { type: 'null' }], description: "The games' clock in seconds, as GraphQL's TimeControl; null: none" },
              totalRounds: { type: ['integer', 'null'] },
              completedRounds: { type: 'integer' },
              participants: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'registrationNo', 'name', 'rating', 'entryRound', 'withdrawnAfterRound'],
                  properties: {
                    id: { type: 'string' },
                    registrationNo: { type: 'integer', minimum: 1, description: '1, 2, 3... in order of registration, never reused' },
                    name: { type: 'string' },
                    rating: { type: 'integer', description: '0 when unrated' },
                    entryRound: { type: 'integer', minimum: 1, description: 'The first round it is paired in: 1 unless it entered late' },
                    withdrawnAfterRound: { type: ['integer', 'null'], description: 'Withdrawn: not paired from the round after this one on; null while it plays on' },
                    externalId: { type: ['string', 'null'], description: "The organizer's own id for it, if given" },
                    requestedByes: { type: 'array', items: { type: 'integer' }, description: 'Rounds it asked a bye for when it registered (P2.6)' },
                  },
                },
              },
              rounds: {
                type: 'array',
                items: roundSchema,
              },
              games: { type: 'array', items: { type: 'string' }, description: 'Every scheduled game id' },
              standings: { type: 'array', items: standingRow },
              crosstable: { type: 'array', items: crosstableRow },
              createdAt: { type: 'string', format: 'date-time' },
              schedule: {
                oneOf: [
                  {
                    type: 'object',
                    description: "A tournament that runs itself (docs/rules/tournaments.md P2.9-P2.11), as GraphQL's TournamentSchedule",
                    required: [
                      'startAt',
                      'registrationOpensAt',
                      'registrationClosesAt',
                      'registration',
                      'checkInOpensAt',
                      'checkIn',
                      'checkedIn',
                      'autoPair',
                      'pairingIntervalSeconds',
                      'scheduleAll',
                      'nextRound',
                      'nextStepAt',
                    ],
                    properties: {
                      startAt: { type: ['string', 'null'], format: 'date-time' },
                      registrationOpensAt: { type: ['string', 'null'], format: 'date-time' },
                      registrationClosesAt: { type: ['string', 'null'], format: 'date-time' },
                      registration: { type: 'string', enum: ['PENDING', 'OPEN', 'CLOSED'] },
                      checkInOpensAt: { type: ['string', 'null'], format: 'date-time' },
                      checkIn: { type: 'string', enum: ['NONE', 'PENDING', 'OPEN', 'CLOSED'] },
                      checkedIn: { type: 'array', items: { type: 'string' } },
                      autoPair: { type: 'boolean' },
                      pairingIntervalSeconds: { type: 'integer', minimum: 0 },
                      scheduleAll: { type: 'boolean' },
                      nextRound: { type: ['integer', 'null'] },
                      nextStepAt: { type: ['string', 'null'], format: 'date-time' },
                    },
                  },
                  { type: 'null' },
                ],
                description: 'Its schedule and where its timed steps stand; null: the organizer runs every step',
              },
            },
          }),
        },
        ...tournamentRefusals,
      },
    },
  },
  '/api/tournaments/{id}/standings': {
    get: {
      operationId: 'getTournamentStandings',
      summary: 'The standings as JSON, or as CSV (`?format=csv` or `Accept: text/csv`)',
      description:
        'CSV: a header `rank,registrationNo,name,tp,<tie-breaks...>`, CRLF lines, exact numbers (`3/2`), fields quoted as RFC 4180 says. A knockout ranks by placings: no points, no tie-breaks.',
      tags: ['tournaments'],
      parameters: [
        tournamentId,
        { name: 'afterRound', in: 'query', description: 'After this many rounds (0 to the completed rounds); omitted: after the completed rounds', schema: { type: 'integer', minimum: 0 } },
        { name: 'format', in: 'query', description: '`json` or `csv`; omitted: as the Accept header asks (JSON by default)', schema: { type: 'string', enum: ['json', 'csv'] } },
      ],
      security: [],
      responses: {
        '200': {
          description: 'The standings',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['afterRound', 'rows'], properties: { afterRound: { type: 'integer', minimum: 0 }, rows: { type: 'array', items: standingRow } } },
            },
            'text/csv': { schema: { type: 'string' } },
          },
        },
        '400': ref('responses', 'InvalidInput'),
        ...tournamentRefusals,
      },
    },
  },
  '/api/tournaments/{id}/games': {
    get: {
      operationId: 'getTournamentGames',
      summary: 'The scheduled games, one JSON object a line, round by round and board by board',
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: [],
      responses: {
        '200': {
          description: 'The games, one a line',
          content: {
            'application/x-ndjson': {
              schema: {
                type: 'object',
                required: ['gameId', 'round', 'board', 'seats', 'status', 'result'],
                properties: {
                  gameId: { type: 'string' },
                  round: { type: 'integer', minimum: 1 },
                  board: { type: 'integer', minimum: 1 },
                  seats: {
                    type: 'array',
                    description: 'Seat 0 first',
                    items: { type: 'object', required: ['participantId', 'name'], properties: { participantId: { type: 'string' }, name: { type: 'string' } } },
                  },
                  status: { type: ['string', 'null'], enum: ['WAITING', 'ACTIVE', 'FINISHED', 'ABORTED', null] },
                  result: gameResult,
                },
              },
            },
          },
        },
        ...tournamentRefusals,
      },
    },
  },
  '/api/tournaments/{id}/events': {
    get: {
      operationId: 'getTournamentEvents',
      summary: "The tournament's hash-chained events, one JSON object a line",
      tags: ['tournaments'],
      parameters: [
        tournamentId,
        { name: 'afterSeq', in: 'query', description: 'Only the events after this sequence number (0, the default: all)', schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 } },
      ],
      security: [],
      responses: {
        '200': { description: 'The events, one a line', content: { 'application/x-ndjson': { schema: ref('schemas', 'StoredEvent') } } },
        '400': ref('responses', 'InvalidInput'),
        ...tournamentRefusals,
      },
    },
  },
  '/api/tournaments/{id}/bundle': {
    get: {
      operationId: 'getTournamentBundle',
      summary: 'The whole tournament as a self-contained, verifiable JSON file: its events and every game bundle',
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: [],
      responses: {
        '200': {
          description: 'The bundle',
          headers: { 'Content-Disposition': { description: '`attachment; filename="<id>.tournament.json"`', schema: { type: 'string' } } },
          content: json({
            type: 'object',
            required: ['format', 'tournament', 'hashAlgorithm', 'head', 'events', 'games'],
            properties: {
              format: { type: 'string', const: 'arbiter-tournament-bundle/1' },
              tournament: {
                type: 'object',
                required: ['id', 'name', 'kind', 'format', 'status', 'seedCommitment', 'seed'],
                properties: {
                  id: { type: 'string' },
                  name: { type: 'string' },
                  kind: { type: 'string' },
                  format: { type: 'string', description: 'As the configuration records it', examples: ['swiss'] },
                  status: { type: 'string', enum: ['REGISTERING', 'RUNNING', 'FINISHED'] },
                  seedCommitment: { type: 'string' },
                  seed: { type: ['string', 'null'], description: 'Null until the tournament finishes' },
                },
              },
              hashAlgorithm: { type: 'string', const: 'sha256(prevHash || RFC8785(event))' },
              head: { type: 'object', required: ['seq', 'hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' } } },
              events: { type: 'array', items: ref('schemas', 'StoredEvent') },
              games: { type: 'array', items: ref('schemas', 'Bundle') },
              log: ref('schemas', 'LogProof'),
            },
          }),
        },
        '409': ref('responses', 'NotFinished'),
        ...tournamentRefusals,
      },
    },
  },
};
