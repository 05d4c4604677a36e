/**
 * The codes a `Rejection` (and a REST error) carries in every game: stable, so clients may branch
 * on them. A game's own codes are its package's (src/games/<game>/index.ts); the RejectionCode
 * enum lists both (src/api/typed-answers.module.ts). test/api/rejection-codes.spec.ts checks that
 * every code the engines and the referee can give is listed.
 */
export const REJECTION_CODES = {
  INVALID_INPUT: 'The request is malformed or names something that cannot be: fix the input (the message says what).',
  NOT_FOUND: 'No game (or tournament) has this id.',
  UNAUTHORIZED: "The seat token is missing, unknown, or not one of this game's seats; or the player's or app's key is unknown, rotated or revoked, or its player holds no seat of this game.",
  NOT_YOUR_TURN: 'The seat may not act now; see `toAct`.',
  ILLEGAL_MOVE: 'The rules do not allow this action now; see `legalActions`.',
  GAME_OVER: 'The game has ended; nothing more can be played.',
  GAME_NOT_STARTED: 'Seats are still open; the game starts when the last one is taken.',
  GAME_NOT_FINISHED: 'Available only once the game ended (it has hidden information until then): bundles and records.',
  NOT_IN_LOG_YET:
    "The finished game's or tournament's entry is not in the transparency log at the tree size asked for: entries are added at the next checkpoint (every 10 s by default, docs/transparency.md); ask again then.",
  NO_PENDING_DECISION: 'The action answers a decision (a double, a Cerke stake) that is not pending.',
  SEAT_TAKEN: 'The seat asked for is taken; join another, or without naming one.',
  PLAYER_ALREADY_SEATED: 'The player holds a seat of this game (or is a participant of this tournament) already: a player holds at most one, which its key acts as.',
  VERSION_CONFLICT: 'The game moved since the `expectedVersion` sent (or another move was stored first): read it again and decide anew.',
  MOVE_ID_REUSED: 'The move id was already used in this game for another seat or another move: choose a new id (a retry must repeat the same move).',
  RATE_LIMITED: 'Too many requests or games created (a pairing counts every game it schedules, a result with a record the game it imports): wait `retryAfter` seconds.',
  TOO_MANY_SUBSCRIPTIONS: 'Too many open subscriptions for this caller or address: close some first.',
  SHUTTING_DOWN: 'This instance is stopping: send the request again (another instance, or this one once restarted, takes it).',
  STORAGE_UNAVAILABLE:
    'The database cannot store now (disk full, unreachable, failing over): try again after Retry-After. A move cut off during its commit may have been stored: send it again with the same move id, which answers the original result if it was.',
  INTEGRITY_ERROR: "The game's stored history failed verification; see `verifyGame`.",
  WEBHOOK_NOT_ALLOWED:
    "The webhook URL's host is not one the operator allows (`WEBHOOK_ALLOWED_HOSTS`; unset, none is; `*` is any public host, and a loopback, private or link-local address needs an entry naming it with its port): use an allowed host, or ask the operator.",
  WEBHOOK_LIMIT: 'The game, seat, tournament, participant or player has 10 webhooks already: delete one first.',
  FORBIDDEN: "The token is this tournament's, but its role may not do this (a participant pairing a round, registering others, or withdrawing someone else).",
  COMMAND_ID_REUSED: 'The command id was already used in this tournament for another command: choose a new id (a retry must repeat the same command).',
  NOT_IN_TOURNAMENT: 'The participant, game or board is not part of this tournament, or the participant token belongs to another tournament.',
  TOURNAMENT_FINISHED: 'The tournament is over: its standings are final and its seed is revealed.',
  TOURNAMENT_COMPLETE: 'Every round of the tournament is paired; nothing more to pair.',
  TOO_FEW_PARTICIPANTS: 'A tournament needs at least 2 participants to pair its first round.',
  TOO_MANY_PARTICIPANTS: 'The tournament has 1000 participants, the most one takes (docs/rules/tournaments.md P2.8).',
  REGISTRATION_CLOSED:
    "Registration closed when round 1 was paired (late entries: Swiss and tables, by the organizer), or self-registration is outside the tournament's registration window (docs/rules/tournaments.md P2.9).",
  CHECK_IN_CLOSED: "The tournament's check-in is not open: it has none, it opens later (`schedule.checkInOpensAt`), or it closed at the start (docs/rules/tournaments.md P2.10).",
  ALREADY_CHECKED_IN: 'The participant has checked in already.',
  NOTHING_DUE: "No step of the tournament's schedule is due (the referee's own check before a timed step; no API call answers it).",
  ALREADY_WITHDRAWN: 'The participant has already withdrawn.',
  ROUND_NOT_FINISHED: 'The last round still has games without a result: record them before pairing the next round (or finishing).',
  ROUND_ALREADY_PAIRED: 'Settings are for the next round to pair; a paired round (or knockout bracket) stands.',
  PAIRING_IMPOSSIBLE: 'Forbidden pairs leave no valid pairing: enter manual pairings for the round (S5.10).',
  BYE_LIMIT: 'The participant has had as many requested byes as the tournament allows.',
  RESULT_ALREADY_RECORDED: 'The game already has its result (a refereed game that ended before the entry has its own): correct it (with a reason) instead.',
  NO_RESULT_TO_CORRECT: 'A correction replaces a recorded result; this game has none yet.',
  TOO_MANY_CORRECTIONS: "The board's results were corrected 10 times, the most allowed (docs/rules/tournaments.md R3.8).",
  INVALID_RESULT:
    "The result does not fit the game: its seats, a played game's ranking and game points, the kinds of forfeit allowed, or an end the game's rules cannot reach (docs/rules/tournaments.md R3.9: no draw in backgammon).",
  RECORD_DISAGREES: 'The attached record, replayed, does not give the outcome, game points or attendance entered besides it (or does not reach the end of the game).',
  NO_CLOCK: 'The game has no time control: clock commands (addTime, pauseClock, resumeClock, declinePause) do not apply.',
  OUT_OF_TIME: "A seat's deadline has passed: the move (or clock command) comes after it and is refused; the seat's timeout is recorded instead.",
  NOT_TIMED_OUT: 'A timeout was asked for a seat whose clock does not run or whose deadline has not come (another instance recorded it first, or the seat moved in time).',
  NO_VACATION_LEFT: 'The seat asked for more vacation than it has left in this game (Game.clock.vacationLeftMs).',
  GIFT_LIMIT:
    "A seat gave another seat more time than that seat may still receive from the other seats in this game (one turn's own time in all: Fischer's base time, correspondence's time per move).",
  PAUSE_CONFLICT:
    'The clock is already paused (or not paused), the seat has already asked, or the organizer paused it (only the organizer resumes it); declinePause: no other seat asks to pause, or the seat asked itself.',
  ABORT_TOO_LATE: 'A seat has moved: the game can no longer be aborted (abortGame is for a game nobody moved in yet); resign instead.',
  TOURNAMENT_GAME: "The game is a tournament's: its organizer's rules decide it (a forfeit, a result entered), so it cannot be aborted (docs/rules/tournaments.md R3.2).",
  SCOPE_MISSING: 'The player\'s or app\'s key lacks the scope this operation needs (docs/players.md, "Keys"): issue a key with it.',
  EXTERNAL_ID_TAKEN: 'The app has a player with this `externalId` already, or the tournament a participant: find that player or participant, or choose another id (docs/players.md).',
  KEY_REVOKED: 'The key was revoked: it cannot be rotated or revoked again (issue a new one).',
  TOO_MANY_KEYS: 'The player or app holds 100 keys, revoked ones included, the most one account holds.',
  OWN_CHALLENGE: 'A player cannot challenge itself, nor accept or decline its own challenge (cancel it instead) (docs/players.md, "Challenges").',
  NOT_YOUR_CHALLENGE: 'The challenge is addressed to another player (only it accepts or declines it), an open challenge is declined by nobody, or only its challenger cancels it.',
  CHALLENGE_CLOSED: "The challenge was accepted, declined or cancelled already: nothing more can be done with it (an acceptor's own retry answers its game).",
  REPORTS_NOT_ALLOWED: "The tournament's organizer enters every result: participants report results only where the tournament allows it (`playerReports`, docs/rules/tournaments.md R3.10).",
  NOT_YOUR_BOARD: "The participant reported a game that is not one of its own (R3.10): report your own board's game.",
  DISPUTE_OPEN: "The game's reports disagree and the dispute is open: the organizer settles it (settleDispute, or recordResult with a reason; R3.11).",
  NO_DISPUTE: 'The game has no open dispute to settle (its reports agree, or are not all in, or it was settled already).',
  ROWS_REFUSED: 'REST bulk registration: some rows were refused (each listed in `rows` with its number, code and message); nothing was registered.',
  CHALLENGE_EXPIRED: "The challenge's expiry (`expiresAt`) has passed: it can no longer be accepted, declined or cancelled; issue a new one.",
  RATED_NEEDS_PLAYERS:
    'A rated game is played between players: every seat bound to a player (not an anonymous or open seat), with fair draws; a rated tournament registers players only (docs/ratings.md).',
} as const;
