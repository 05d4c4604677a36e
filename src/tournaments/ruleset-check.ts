import { tournamentRulesetWarnings } from '../games/tournament-rulesets.js';
import { type EngineRegistry, parseTournamentGame, RefereeError } from '../referee/index.js';
import type { TournamentRulesetInput } from './dto/tournament-ruleset.input.js';
import { gameInputOf } from './mapping.js';
import type { TournamentRulesetCheck } from './models/ruleset-check.js';

/**
 * A tournament's game checked as createTournament checks it, through the same two steps (the
 * ruleset's form, then parseTournamentGame), without creating anything: the ruleset every game
 * would play with the advice its game's own check gives, or the message createTournament's
 * INVALID_INPUT would carry.
 */
export function checkTournamentRuleset(registry: EngineRegistry, input: TournamentRulesetInput): TournamentRulesetCheck {
  const refused = (message: string): TournamentRulesetCheck => ({ ok: false, message, warnings: [], ruleset: null, seatCount: null });
  let game: ReturnType<typeof parseTournamentGame>;
  try {
    game = parseTournamentGame(gameInputOf(input), registry);
  } catch (err) {
    if (err instanceof RefereeError) return refused(err.message);
    throw err;
  }
  if (!game.ok) return refused(game.error.message);
  const { ruleset, seatCount } = game.value;
  return { ok: true, message: null, warnings: tournamentRulesetWarnings(input.kind, ruleset), ruleset, seatCount };
}
