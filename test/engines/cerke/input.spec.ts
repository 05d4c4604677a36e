import { PROFILES } from '../../../src/games/cerke/engine/index.js';
import { engine, online } from './helpers.js';

describe('ruleset input', () => {
  it('defaults to the online profile with four seasons', () => {
    expect(engine.parseRuleset(undefined)).toEqual({ ok: true, value: { profile: 'online', seasons: 4, ...PROFILES.online } });
    expect(engine.parseRuleset({})).toEqual(engine.parseRuleset(undefined));
    expect(engine.seatCount(online)).toBe(2);
  });

  it('the strict profile switches every flag the spec lists', () => {
    const strict = engine.parseRuleset({ profile: 'strict' });
    expect(strict).toMatchObject({
      ok: true,
      value: {
        stepTamIsAHand: true,
        tamItselfIsTamHue: false,
        movingTamImmediatelyAfterTamHasMoved: 'penalized',
        tamMunMok: 'penalized',
        failureToCompleteTheMoveMeansExemptFromKut2Tam2: false,
        whatToSayBeforeCastingSticks: 'exactDestination',
      },
    });
  });

  it('each flag can be chosen per game on top of a profile', () => {
    expect(engine.parseRuleset({ profile: 'strict', seasons: 2, tamMunMok: 'allowed', allowKut2Tam2: false })).toMatchObject({
      ok: true,
      value: { profile: 'strict', seasons: 2, tamMunMok: 'allowed', allowKut2Tam2: false, stepTamIsAHand: true },
    });
  });

  it.each([
    [null, /JSON object/],
    [[], /JSON object/],
    ['online', /JSON object/],
    [{ seasons: 3 }, /"seasons" must be one of 1, 2, 4, not 3/],
    [{ seasons: '4' }, /"seasons" must be one of 1, 2, 4, not "4"/],
    [{ profile: 'casual' }, /"profile" must be one of "online", "strict"/],
    [{ tamMunMok: true }, /"tamMunMok" must be one of "allowed", "penalized"/],
    [{ stepTamIsAHand: 'yes' }, /"stepTamIsAHand" must be one of true, false/],
    [{ rounds: 4 }, /unknown ruleset field "rounds"/],
  ])('rejects %j', (input, message) => {
    expect(engine.parseRuleset(input)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(message) } });
  });
});

describe('action input', () => {
  it.each([
    { type: 'move', from: 'MAU', to: 'MY' },
    { type: 'move', from: 'MAU', via: 'MAI', to: 'MY' },
    { type: 'completeStep', to: 'MY' },
    { type: 'abandonStep' },
    { type: 'drop', colour: 'black', kind: 'Archer', to: 'ZO' },
    { type: 'moveTam2', firstSquare: 'TU', to: 'ZU' },
    { type: 'moveTam2', firstSquare: 'TU', to: 'ZE', via: 'ZI', stepDuring: 'secondHalf' },
    { type: 'continue' },
    { type: 'endSeason' },
  ])('accepts %j', (input) => {
    expect(engine.parseAction(input)).toEqual({ ok: true, value: input });
  });

  it.each([
    [null, /JSON object/],
    ['move', /JSON object/],
    [{ from: 'MAU', to: 'MY' }, /"type" must be one of/],
    [{ type: 'pass' }, /"type" must be one of/],
    [{ type: 'move', from: 'MAU' }, /needs "to"/],
    [{ type: 'move', from: 'MAU', to: 'MY', cast: 3 }, /no field "cast"/],
    [{ type: 'move', from: 'MAUU', to: 'MY' }, /"from" must be a square/],
    [{ type: 'move', from: 'MAU', to: ['Y', 'M'] }, /"to" must be a square/],
    [{ type: 'move', from: 'MAU', via: 7, to: 'MY' }, /"via" must be a square/],
    [{ type: 'drop', colour: 'white', kind: 'Pawn', to: 'ZO' }, /"colour" must be "red" or "black"/],
    [{ type: 'drop', colour: 'red', kind: 'Tam2', to: 'ZO' }, /"kind" must be one of/],
    [{ type: 'moveTam2', firstSquare: 'TU', to: 'ZE', via: 'ZI' }, /both "via" and "stepDuring"/],
    [{ type: 'moveTam2', firstSquare: 'TU', to: 'ZE', via: 'ZI', stepDuring: 'middle' }, /"stepDuring" must be/],
    [{ type: 'continue', hands: [] }, /no field "hands"/],
  ])('rejects %j', (input, message) => {
    expect(engine.parseAction(input)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(message) } });
  });
});
