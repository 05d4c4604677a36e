/** The `tournaments` commands over REST: the organizer's result, bulk registration and check-in. */
import { json, type Paths, ref, type Schema } from './builders.js';
import { freeObject } from './game-json.js';
import { tournamentId, tournamentRefusals } from './tournaments.js';

/** The organizer's commands: its token, and the refusals a command may answer besides the reads'. */
const organizerOnly: Record<string, string[]>[] = [{ organizerToken: [] }];
const commandRefusals = {
  '400': ref('responses', 'InvalidInput'),
  '401': { description: "`UNAUTHORIZED`: no token, or one that is neither this tournament's organizer's nor a participant's", content: json(ref('schemas', 'Error')) },
  '403': { description: "`FORBIDDEN`: a participant's token, where the organizer's is needed", content: json(ref('schemas', 'Error')) },
  '413': ref('responses', 'PayloadTooLarge'),
  ...tournamentRefusals,
};
const participantRow: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', description: 'Its display name' },
    rating: { type: 'integer', minimum: 0, maximum: 10000, description: "Omitted: its player's current rating in the tournament's pool, else 0 (unrated) (docs/ratings.md)" },
    externalId: { type: 'string', minLength: 1, maxLength: 64, description: "The organizer's own id for it, unique in the tournament" },
    requestedByes: { type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Rounds it asks a bye for (Swiss and tables, P2.6)' },
    player: { type: 'string', description: 'The player it is (a player id)' },
  },
};

export const tournamentCommandPaths: Paths = {
  '/api/tournaments/{id}/results': {
    post: {
      operationId: 'recordTournamentResult',
      summary: "The organizer's result for a scheduled game, as GraphQL's recordResult: an over-the-board game, a forfeit, a correction, or a disputed game's settlement",
      description:
        "The game is closed with the result (a game that ended first keeps its own: RESULT_ALREADY_RECORDED unless the entry says the same). A record's game counts against the address's creation quota. An organizer's forfeit in a multi-game knockout match closes the match's later games (docs/rules/tournaments.md K6.8).",
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: organizerOnly,
      requestBody: {
        description: "GraphQL's ResultInput as JSON, with an optional commandId",
        required: true,
        content: json({
          type: 'object',
          required: ['round', 'board'],
          properties: {
            round: { type: 'integer', minimum: 1 },
            board: { type: 'integer', minimum: 1 },
            gameId: { type: 'string', description: "The board's game; omitted: the one still waiting for its result" },
            outcome: { type: 'string', enum: ['WIN_SEAT0', 'WIN_SEAT1', 'DRAW', 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT'] },
            gamePoints: { type: 'array', items: { type: ['string', 'number', 'null'] }, description: 'Per seat; null for a seat that did not play' },
            present: { type: 'array', items: { type: 'boolean' }, description: 'Tables: who was present, per seat' },
            record: { type: 'string', description: "The game's record in its own format: the outcome and game points are taken from it" },
            reason: { type: 'string', maxLength: 500, description: 'Why; needed by a correction and by a disputed game' },
            correction: { type: 'boolean', description: 'Replaces the result recorded earlier' },
            commandId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$', description: 'A retry with the same id and body answers the tournament as it is' },
          },
        }),
      },
      responses: {
        '200': { description: 'The tournament as GET /api/tournaments/{id} has it, without standings and crosstable', content: json(freeObject('The tournament')) },
        '409': { description: '`VERSION_CONFLICT`, `DISPUTE_OPEN`', content: json(ref('schemas', 'Error')) },
        ...commandRefusals,
      },
    },
  },
  '/api/tournaments/{id}/participants': {
    post: {
      operationId: 'registerTournamentParticipants',
      summary: 'Registers many participants at once, as CSV or JSON, all or none (GraphQL: registerParticipants)',
      description:
        'CSV: a header naming the columns (`name` required; `rating`, `externalId`, `requestedByes`, `player` in any order), then one participant a line; `requestedByes` lists rounds separated by spaces or semicolons. ' +
        'Row 1 is the first participant. Every row is checked before anything is stored: any refused row answers 422 `ROWS_REFUSED` with every refused row listed, and registers nobody.',
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: organizerOnly,
      requestBody: {
        description: 'The participants',
        required: true,
        content: {
          'text/csv': { schema: { type: 'string' }, example: 'name,rating,externalId,requestedByes\r\nAda,1850,FED-1,\r\nBo,1720,FED-2,2 3\r\n' },
          'application/json': {
            schema: {
              type: 'object',
              required: ['participants'],
              properties: { participants: { type: 'array', items: participantRow }, commandId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$' } },
            },
          },
        },
      },
      responses: {
        '201': {
          description: 'Every row registered, each with its id and token (shown only here)',
          content: json({
            type: 'object',
            required: ['tournament', 'participants'],
            properties: {
              tournament: freeObject('The tournament, as GET /api/tournaments/{id} has it without standings and crosstable'),
              participants: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['row', 'participantId', 'participantToken'],
                  properties: { row: { type: 'integer', minimum: 1 }, participantId: { type: 'string' }, participantToken: { type: 'string' } },
                },
              },
            },
          }),
        },
        '422': {
          description: '`ROWS_REFUSED`: the rows refused, nothing registered (or another refusal, without `rows`)',
          content: json({
            type: 'object',
            required: ['error'],
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: { type: 'string', examples: ['ROWS_REFUSED'] },
                  message: { type: 'string' },
                  rows: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['row', 'code', 'message'],
                      properties: { row: { type: 'integer', minimum: 0, description: '0: the header' }, code: { type: 'string' }, message: { type: 'string' } },
                    },
                  },
                },
              },
            },
          }),
        },
        ...Object.fromEntries(Object.entries(commandRefusals).filter(([status]) => status !== '422')),
      },
    },
  },
  '/api/tournaments/{id}/check-in': {
    post: {
      operationId: 'checkInTournamentParticipant',
      summary: "A participant checks in while the tournament's check-in is open, as GraphQL's checkIn (docs/rules/tournaments.md P2.10)",
      description:
        "With the participant's own token the body may be left out: the token's participant checks in. The organizer's token checks in the participant it names. Who has not checked in by the start is withdrawn before round 1.",
      tags: ['tournaments'],
      parameters: [tournamentId],
      security: [{ participantToken: [] }, { organizerToken: [] }],
      requestBody: {
        description: "Optional: the participant (needed with the organizer's token) and a commandId",
        required: false,
        content: json({
          type: 'object',
          properties: {
            participantId: { type: 'string', description: "The participant; omitted: the token's own" },
            commandId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$', description: 'A retry with the same id and body answers the tournament as it is' },
          },
        }),
      },
      responses: {
        '200': { description: 'The tournament as GET /api/tournaments/{id} has it, without standings and crosstable', content: json(freeObject('The tournament')) },
        '403': { description: "`FORBIDDEN`: a participant's token naming another participant", content: json(ref('schemas', 'Error')) },
        ...Object.fromEntries(Object.entries(commandRefusals).filter(([status]) => status !== '403')),
      },
    },
  },
};
