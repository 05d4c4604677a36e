import { dealValues, type ChickenFootRuleset, type OrganizerDeal } from './engine/index.js';
import { RefereeError } from '../../referee/index.js';
import { spelledRuleset } from '../ruleset-spellings.js';
import { CHICKEN_FOOT_CHOICES } from './ruleset-choices.js';
import { definedOptions } from '../rulesets.js';
import type { ChickenFootDealInput, ChickenFootRulesetInput } from './dto/game.input.js';

const invalid = (message: string) => new RefereeError('INVALID_INPUT', message);

/** The typed ruleset fields and `overrides` (either spelling of a choice) as the engine's ruleset JSON. */
export function rulesetOf(input: ChickenFootRulesetInput): Record<string, unknown> {
  const { overrides: given, targetScore, ...fields } = input;
  const options = definedOptions(fields);
  if (targetScore !== null && targetScore !== undefined) options.gameEnd = { targetScore };
  if (given === null || given === undefined) return options;
  if (typeof given !== 'object' || Array.isArray(given)) throw invalid('ruleset.overrides must be a JSON object of ruleset options');
  const overrides = spelledRuleset(CHICKEN_FOOT_CHOICES, given) as Record<string, unknown>;
  // Refuse rather than silently prefer one of two values for the same option.
  // Own keys only: an override named "constructor" or "toString" is an unknown option (the engine says so), not a clash.
  const twice = Object.keys(overrides).find((k) => Object.hasOwn(options, k));
  if (twice) throw invalid(`ruleset option "${twice}" is given both as a field and in overrides`);
  return { ...overrides, ...options };
}

/**
 * Organizer deals as supplied chance values, in the order the engine asks for chance: the first
 * dealer (when it is drawn), then one shuffle per round.
 */
export function organizerChance(ruleset: ChickenFootRuleset, deals: ChickenFootDealInput[], drawnFirstDealer: number | null): number[][] {
  const players = ruleset.players;
  const random = ruleset.firstDealer === 'random';
  if (drawnFirstDealer !== null) {
    if (!random) throw invalid(`drawnFirstDealer applies only when the ruleset's firstDealer is "random" (it is seat ${ruleset.firstDealer})`);
    if (!Number.isInteger(drawnFirstDealer) || drawnFirstDealer < 0 || drawnFirstDealer >= players) throw invalid(`drawnFirstDealer must be a seat from 0 to ${players - 1}`);
  } else if (random && deals.length > 0) {
    throw invalid('deals with a random first dealer need drawnFirstDealer: the first dealer is drawn before round 1 is dealt');
  }
  const firstDealer = (random ? drawnFirstDealer : ruleset.firstDealer) as number;
  const chance = drawnFirstDealer === null ? [] : [[drawnFirstDealer]];
  deals.forEach(({ hands, yard, finder }, i) => {
    const round = i + 1;
    const deal: OrganizerDeal = { hands, yard };
    if (finder !== null && finder !== undefined) deal.finder = finder;
    if (ruleset.startDoubleSource === 'setAside') {
      deal.round = round;
      deal.dealer = (firstDealer + round - 1) % players;
    }
    const values = dealValues(ruleset, deal);
    if (!values.ok) throw new RefereeError(values.error.code, `deal for round ${round}: ${values.error.message}`);
    chance.push(values.value);
  });
  return chance;
}
