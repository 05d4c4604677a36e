import { backgammonEngine as bg, importRecord } from '../../../src/games/backgammon/engine/index.js';
import { ruleset } from './helpers.js';

describe('ruleset input', () => {
  it('fills the defaults of a money game', () => {
    expect(bg.parseRuleset({})).toEqual({
      ok: true,
      value: {
        matchLength: 0,
        crawford: true,
        holland: false,
        cubeEnabled: true,
        maxCube: 64,
        jacoby: true,
        beavers: 0,
        raccoons: false,
        automaticDoubles: 0,
        openingRoll: 'use-opening-dice',
        autoRoll: false,
        skipRollWhenClosedOut: false,
        backgammonIncludesBar: true,
        resignWhen: 'own-turn',
        forbidRepeatLowerResignation: true,
        jacobyAppliesToResignations: false,
      },
    });
    expect(bg.parseRuleset({ matchLength: 7 })).toMatchObject({ ok: true, value: { matchLength: 7, jacoby: false } });
    expect(bg.seatCount(ruleset())).toBe(2);
  });

  it.each<[unknown, RegExp]>([
    [[], /JSON object/],
    [{ matchlength: 7 }, /no field "matchlength"/],
    [{ matchLength: -1 }, /matchLength must be between 0 and 32767/],
    [{ matchLength: 2.5 }, /matchLength must be an integer/],
    [{ matchLength: '7' }, /matchLength must be an integer/],
    [{ crawford: 'yes' }, /crawford must be true or false/],
    [{ maxCube: 48 }, /maxCube must be a power of two/],
    [{ maxCube: 65536 }, /maxCube must be a power of two from 1 to 32768/],
    [{ openingRoll: 'roll-again' }, /openingRoll must be one of/],
    [{ resignWhen: 'never' }, /resignWhen must be one of/],
    [{ matchLength: 5, jacoby: true }, /jacoby applies to money play only/],
    [{ matchLength: 5, beavers: 1 }, /beavers applies to money play only/],
    [{ beavers: 16 }, /beavers must be between 0 and 15/],
    [{ raccoons: true }, /raccoons need beavers/],
  ])('refuses %j', (input, message) => {
    expect(bg.parseRuleset(input)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message } });
  });
});

describe('action input', () => {
  it('reads every action, with bar/off words or 25/0 numbers', () => {
    for (const type of ['roll', 'double', 'take', 'drop', 'beaver', 'raccoon', 'acceptResignation', 'rejectResignation']) {
      expect(bg.parseAction({ type })).toEqual({ ok: true, value: { type } });
    }
    expect(bg.parseAction({ type: 'resign', level: 'gammon' })).toEqual({ ok: true, value: { type: 'resign', level: 'gammon' } });
    expect(
      bg.parseAction({
        type: 'play',
        moves: [
          { from: 25, to: 22 },
          { from: 'bar', to: 20 },
          { from: 3, to: 0 },
          { from: 2, to: 'off' },
        ],
      }),
    ).toEqual({
      ok: true,
      value: {
        type: 'play',
        moves: [
          { from: 'bar', to: 22 },
          { from: 'bar', to: 20 },
          { from: 3, to: 'off' },
          { from: 2, to: 'off' },
        ],
      },
    });
  });

  it.each<[unknown, RegExp]>([
    [null, /JSON object/],
    [{ type: 'move' }, /unknown action type "move"/],
    [{}, /unknown action type undefined/],
    [{ type: 'roll', dice: [6, 6] }, /"roll" action has no field "dice"/],
    [{ type: 'resign' }, /"level": "single", "gammon" or "backgammon"/],
    [{ type: 'resign', level: 'triple' }, /"level"/],
    [{ type: 'play' }, /list of 1 to 4 checker moves/],
    [{ type: 'play', moves: [] }, /list of 1 to 4/],
    [{ type: 'play', moves: [1, 2, 3, 4, 5].map(() => ({ from: 6, to: 5 })) }, /list of 1 to 4/],
    [{ type: 'play', moves: [{ from: 26, to: 20 }] }, /move 1: "from" must be a point 1-24 or "bar"/],
    [{ type: 'play', moves: [{ from: 6, to: -1 }] }, /move 1: "to" must be a point 1-24 or "off"/],
    [{ type: 'play', moves: [{ from: 6, to: 'bar' }] }, /"to" must be/],
    [{ type: 'play', moves: [{ from: 6, to: 5, hit: true }] }, /move 1 has no field "hit"/],
    [{ type: 'play', moves: [[6, 5]] }, /move 1 must be an object/],
  ])('refuses %j', (input, message) => {
    expect(bg.parseAction(input)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message } });
  });
});

describe('.mat input', () => {
  it.each<[string, RegExp]>([
    ['', /no "N point match" line/],
    [' 5 point match\n', /no games/],
    [' 5 point match\n\n Game 1\n a : 0     b : 0\n  1) 91: 13/8\n', /"91:" is not a roll/],
    [' 5 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: 8/x\n', /names a point that does not exist/],
    [' 5 point match\n\n Game 1\n a : 0     b : 0\n  1) Hello\n', /cannot read "Hello"/],
    [' 5 point match\n\nsomething odd\n', /line 3: cannot read/],
    [' 0 point match\n\n Game 1\n a : 0     b : 0\n Game 2\n a : 0     b : 0\n', /money record holds one game/],
  ])('refuses malformed text %#', (text, message) => {
    expect(importRecord(text)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message } });
  });

  it('labels each entry with its game, move and player', () => {
    const r = importRecord(' 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1)                             31: 8/5 6/5\n  2) 64: 24/18 18/14\n');
    expect(r).toMatchObject({
      ok: true,
      value: { seatNames: ['Ann', 'Bob'], labels: ['game 1, move 1 (Bob)', 'game 1, move 1 (Bob)', 'game 1, move 2 (Ann)', 'game 1, move 2 (Ann)', 'game 1, move 2 (Ann)'] },
    });
  });
});
