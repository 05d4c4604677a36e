/** Ruleset and action input: defaults of both presets, and precise refusals of anything malformed or impossible. */
import { Codes } from '../../../src/engines/kit/index.js';
import { CLASSIC_HAND_SIZES } from '../../../src/games/chicken-foot/engine/index.js';
import { engine, rules } from './helpers.js';

function refusal(input: unknown): string {
  const parsed = engine.parseRuleset(input);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  expect(parsed.error.code).toBe(Codes.INVALID_INPUT);
  return parsed.error.message;
}

describe('Chicken Foot rulesets', () => {
  it('classic is the default preset: double-9, hands by player count, finder opens, P arms, closed hub, one draw that must be played', () => {
    expect(rules({ players: 4 })).toEqual({
      preset: 'classic',
      players: 4,
      setMax: 9,
      handSize: 11,
      firstDealer: 'random',
      startDoubleSource: 'setAside',
      missingStartDouble: 'drawUntilFound',
      firstToAct: 'finder',
      hubRequiredArms: 4,
      hubCapacity: 4,
      toesPerFoot: 3,
      drawPolicy: 'one',
      mustPlayDrawn: true,
      yardReserve: 1,
      blockedDetection: 'immediate',
      emptyYardEndsRound: false,
      doubleBlankValue: 0,
      blankEndValue: null,
      lastTileDoublePenalty: 0,
      lastTileCall: { enabled: false, penaltyDraws: 1 },
      gameEnd: 'allDoubles',
      tieBreak: [],
    });
    for (const players of [2, 3, 4, 5, 6, 7, 8]) expect(rules({ players }).handSize).toBe(CLASSIC_HAND_SIZES[players]);
    expect(rules({ players: 2 }).yardReserve).toBe(2);
  });

  it('malta-cross: 7 tiles, the holder places the hub and the next seat opens, 4 arms, drawn tiles optional, no reserve, 0-0 at 50, tie-breaks', () => {
    expect(rules({ preset: 'malta-cross', players: 5 })).toMatchObject({
      handSize: 7,
      startDoubleSource: 'fromHand',
      firstToAct: 'nextAfterPlacer',
      hubRequiredArms: 4,
      hubCapacity: 4,
      mustPlayDrawn: false,
      yardReserve: 0,
      doubleBlankValue: 50,
      tieBreak: ['zeroRounds', 'lowestPositiveRound'],
    });
  });

  it('accepts every option of the configuration section, including keywords and a hand-size table', () => {
    const r = rules({
      preset: 'malta-cross',
      players: 3,
      setMax: 12,
      handSize: { 3: 9, 4: 8 },
      firstDealer: 2,
      missingStartDouble: 'burn',
      firstToAct: 'placer',
      hubRequiredArms: 'players',
      hubCapacity: 6,
      toesPerFoot: 2,
      drawPolicy: 'untilPlayable',
      mustPlayDrawn: true,
      yardReserve: 'classic',
      blockedDetection: 'passCycle',
      emptyYardEndsRound: true,
      doubleBlankValue: 25,
      blankEndValue: 10,
      lastTileDoublePenalty: 20,
      lastTileCall: { enabled: true, penaltyDraws: 2 },
      gameEnd: { targetScore: 250 },
      tieBreak: ['lowestPositiveRound'],
    });
    expect(r).toMatchObject({ handSize: 9, firstDealer: 2, hubRequiredArms: 3, hubCapacity: 6, yardReserve: 1, gameEnd: { targetScore: 250 } });
    expect(rules(r as unknown as Record<string, unknown>)).toEqual(r);
  });

  it('refuses impossible combinations, naming the broken limit', () => {
    expect(refusal({ preset: 'malta-cross', players: 8 })).toMatch(/8 hands of 7 need 56 tiles.*55/);
    expect(refusal({ players: 4, handSize: 14 })).toMatch(/need 56 tiles.*only 53 to deal after setting the starting double aside and keeping a reserve of 1/);
    expect(refusal({ players: 4, setMax: 6 })).toMatch(/need 44 tiles, but a double-6 set \(28 tiles\)/);
    expect(refusal({ players: 9 })).toMatch(/players must be between 2 and 8, got 9/);
    expect(refusal({ players: 1 })).toMatch(/players must be between 2 and 8/);
    expect(refusal({ players: 5, hubRequiredArms: 4 })).toMatch(/classic hubRequiredArms must be between the number of players \(5\) and 8/);
    expect(refusal({ players: 4, hubRequiredArms: 6, hubCapacity: 5 })).toMatch(/hubCapacity \(5\) must be at least hubRequiredArms \(6\)/);
    expect(refusal({ preset: 'malta-cross', players: 2, setMax: 6, hubRequiredArms: 7 })).toMatch(/hubRequiredArms must be between 1 and 6/);
    expect(refusal({ players: 8, setMax: 6, handSize: 3, hubRequiredArms: 'players' })).toMatch(/hubRequiredArms \(8\) cannot exceed setMax \(6\)/);
    expect(refusal({ players: 4, missingStartDouble: 'burn' })).toMatch(/burn" needs startDoubleSource "fromHand"/);
    expect(refusal({ preset: 'malta-cross', players: 4, firstToAct: 'finder' })).toMatch(/finder" needs startDoubleSource "setAside"/);
    expect(refusal({ players: 4, firstToAct: 'placer' })).toMatch(/placer" needs startDoubleSource "fromHand"/);
    expect(refusal({ players: 4, firstDealer: 4 })).toMatch(/firstDealer must be between 0 and 3/);
    expect(refusal({ players: 3, handSize: { 4: 8 } })).toMatch(/no entry for 3 players/);
    expect(refusal({ players: 3, toesPerFoot: 9 })).toMatch(/toesPerFoot must be between 1 and 8/);
  });

  it('refuses malformed input: wrong types, unknown keys and out-of-range numbers', () => {
    expect(refusal(null)).toMatch(/must be a JSON object/);
    expect(refusal([4])).toMatch(/must be a JSON object/);
    expect(refusal({})).toMatch(/players is required/);
    expect(refusal({ players: '4' })).toMatch(/players must be an integer, got "4"/);
    expect(refusal({ players: 4.5 })).toMatch(/players must be an integer/);
    expect(refusal({ players: 4, seed: 'x' })).toMatch(/unknown ruleset option "seed"/);
    expect(refusal({ preset: 'custom', players: 4 })).toMatch(/preset must be one of "classic", "malta-cross"/);
    expect(refusal({ players: 4, setMax: 20 })).toMatch(/setMax must be between 6 and 18/);
    expect(refusal({ players: 4, mustPlayDrawn: 'yes' })).toMatch(/mustPlayDrawn must be true or false/);
    expect(refusal({ players: 4, drawPolicy: 'many' })).toMatch(/drawPolicy must be one of "one", "untilPlayable"/);
    expect(refusal({ players: 4, hubCapacity: 'all' })).toMatch(/hubCapacity must be an integer or "required"/);
    expect(refusal({ players: 4, yardReserve: -1 })).toMatch(/yardReserve must be between 0/);
    expect(refusal({ players: 4, doubleBlankValue: 5000 })).toMatch(/doubleBlankValue must be between 0 and 1000/);
    expect(refusal({ players: 4, gameEnd: { targetScore: 0 } })).toMatch(/targetScore must be between 1/);
    expect(refusal({ players: 4, gameEnd: { target: 100 } })).toMatch(/gameEnd has an unknown key "target"/);
    expect(refusal({ players: 4, gameEnd: 'never' })).toMatch(/gameEnd must be "allDoubles" or/);
    expect(refusal({ players: 4, tieBreak: ['zeroRounds', 'zeroRounds'] })).toMatch(/tieBreak lists "zeroRounds" twice/);
    expect(refusal({ players: 4, tieBreak: ['coinFlip'] })).toMatch(/tieBreak\[0\] must be/);
    expect(refusal({ players: 4, lastTileCall: { enabled: 'on' } })).toMatch(/lastTileCall.enabled must be true or false/);
    expect(refusal({ players: 4, lastTileCall: { enabled: true, penalty: 2 } })).toMatch(/unknown key "penalty"/);
    expect(refusal({ players: 4, handSize: { 9: 3 } })).toMatch(/handSize table keys must be player counts 2 to 8, got "9"/);
    expect(refusal({ players: 4, handSize: { 4: 0 } })).toMatch(/handSize\["4"\] must be between 1/);
  });
});

describe('Chicken Foot actions', () => {
  const parse = (input: unknown) => engine.parseAction(input);

  it('reads play, draw and pass, writing tiles canonically (smaller pip first)', () => {
    expect(parse({ type: 'play', tile: '9-2', target: 'hub' })).toEqual({ ok: true, value: { type: 'play', tile: '2-9', target: 'hub' } });
    expect(parse({ type: 'play', tile: '5-8', target: '5-5', announce: false })).toEqual({ ok: true, value: { type: 'play', tile: '5-8', target: '5-5' } });
    expect(parse({ type: 'play', tile: '5-8', target: '8-2', announce: true })).toEqual({ ok: true, value: { type: 'play', tile: '5-8', target: '2-8', announce: true } });
    expect(parse({ type: 'draw' })).toEqual({ ok: true, value: { type: 'draw' } });
    expect(parse({ type: 'pass' })).toEqual({ ok: true, value: { type: 'pass' } });
  });

  it.each([
    [null, /must be a JSON object/],
    ['draw', /must be a JSON object/],
    [{ type: 'knock' }, /type must be "play", "draw" or "pass", got "knock"/],
    [{ type: 'draw', tile: '1-2' }, /a draw action has no "tile" field/],
    [{ type: 'play', tile: '5-8' }, /play.target must be "hub" or the tile/],
    [{ type: 'play', tile: 58, target: 'hub' }, /play.tile must be a tile such as "5-8"/],
    [{ type: 'play', tile: '5-19', target: 'hub' }, /play.tile must be a tile.*pips 0 to 18/],
    [{ type: 'play', tile: '5-8', target: 'a1.end' }, /play.target must be "hub" or the tile on the table/],
    [{ type: 'play', tile: '5-8', target: 'hub', announce: 'yes' }, /announce must be true or false/],
    [{ type: 'play', tile: '5-8', target: 'hub', seat: 1 }, /a play action has no "seat" field/],
  ])('refuses %j', (input, message) => {
    const parsed = parse(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe(Codes.INVALID_INPUT);
      expect(parsed.error.message).toMatch(message);
    }
  });
});
