import fc from 'fast-check';
import { decodeMatchId, decodePositionId, encodeMatchId, encodePositionId, swapSides, type MatchIdFields } from '../../../src/games/backgammon/engine/index.js';
import { checkers, ok } from './helpers.js';

const start = checkers({ 24: 2, 13: 5, 8: 3, 6: 5 }).slice(0, 25);

describe('GNU Backgammon Position ID', () => {
  it('the starting position is 4HPwATDgc/ABMA (bytes E0 73 F0 01 30 E0 73 F0 01 30)', () => {
    expect(encodePositionId([start, start])).toBe('4HPwATDgc/ABMA');
    expect(Buffer.from('4HPwATDgc/ABMA==', 'base64').toString('hex')).toBe('e073f00130e073f00130');
    expect(ok(decodePositionId('4HPwATDgc/ABMA'))).toEqual([start, start]);
  });

  it('a board with no checkers is AAAAAAAAAAAAAA', () => {
    const empty = new Array(25).fill(0);
    expect(encodePositionId([empty, empty])).toBe('AAAAAAAAAAAAAA');
    expect(ok(decodePositionId('AAAAAAAAAAAAAA'))).toEqual([empty, empty]);
  });

  it("swapping sides gives the other player's view", () => {
    const onRoll = checkers({ 6: 15 }).slice(0, 25);
    const notOnRoll = checkers({ 24: 15 }).slice(0, 25);
    const id = encodePositionId([notOnRoll, onRoll]);
    expect(encodePositionId(swapSides(ok(decodePositionId(id))))).toBe(encodePositionId([onRoll, notOnRoll]));
  });

  it.each([
    ['4HPwATDgc/ABM', /14 characters/],
    ['4HPwATDgc/ABMAA', /14 characters/],
    ['4HPwATDgc/AB-A', /outside the Base64 alphabet/],
    ['4HPwATDgc/ABMB', /last character must be A, Q, g or w/],
    ['//////////////'.slice(0, 13) + 'w', /beyond the 50 slots|more than|checkers/],
  ])('refuses %s', (id, message) => {
    const r = decodePositionId(id);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('INVALID_INPUT');
      expect(r.error.message).toMatch(message);
    }
  });

  it('refuses more than 15 checkers, both players on one point, and the dead both-on-bar position', () => {
    const sixteen = checkers({}).slice(0, 25);
    sixteen[5] = 16;
    expect(decodePositionId(encodePositionId([new Array(25).fill(0), sixteen]))).toMatchObject({ ok: false, error: { message: /16 checkers/ } });
    const a = new Array(25).fill(0);
    const b = new Array(25).fill(0);
    a[0] = 1; // not on roll: own point 1 = on-roll's point 24
    b[23] = 1;
    expect(decodePositionId(encodePositionId([a, b]))).toMatchObject({ ok: false, error: { message: /both players on one point/ } });
    const closed = [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    expect(decodePositionId(encodePositionId([closed, closed]))).toMatchObject({ ok: false, error: { message: /dead position/ } });
  });

  it('decode(encode(x)) = x for random positions', () => {
    // A random position: each side drops up to 15 checkers on its points and bar without sharing a point.
    const arbPosition = fc.tuple(fc.array(fc.integer({ min: 0, max: 24 }), { maxLength: 15 }), fc.array(fc.integer({ min: 0, max: 24 }), { maxLength: 15 }));
    fc.assert(
      fc.property(arbPosition, ([slotsA, slotsB]) => {
        const a = new Array(25).fill(0);
        const b = new Array(25).fill(0);
        for (const s of slotsA) a[s]++;
        for (const s of slotsB) if (s === 24 || a[23 - s] === 0) b[s]++;
        const dead = a[24] > 0 && b[24] > 0 && a.slice(0, 6).every((n) => n >= 2) && b.slice(0, 6).every((n) => n >= 2);
        fc.pre(!dead);
        const id = encodePositionId([a, b]);
        expect(id).toHaveLength(14);
        expect(ok(decodePositionId(id))).toEqual([a, b]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('GNU Backgammon Match ID', () => {
  const base: MatchIdFields = {
    cubeValue: 1,
    cubeOwner: null,
    playerOnRoll: 0,
    crawford: false,
    gameState: 'playing',
    turn: 0,
    doubleOffered: false,
    resignationOffered: null,
    dice: null,
    matchLength: 0,
    score: [0, 0],
    jacoby: true,
  };

  it("the manual's QYkqASAAIAAA: 9-point match, 2-4, player 0 owns a 2-cube, player 1 on roll with 5-2", () => {
    expect(ok(decodeMatchId('QYkqASAAIAAA'))).toEqual({
      ...base,
      cubeValue: 2,
      cubeOwner: 0,
      playerOnRoll: 1,
      turn: 1,
      dice: [5, 2],
      matchLength: 9,
      score: [2, 4],
    });
    expect(encodeMatchId(ok(decodeMatchId('QYkqASAAIAAA')))).toBe('QYkqASAAIAAA');
  });

  it.each<[string, Partial<MatchIdFields>]>([
    ['MAEAAAAAAAAA', {}],
    ['cInqACAAIAAE', { playerOnRoll: 1, turn: 1, dice: [5, 2], matchLength: 7, score: [2, 4], jacoby: false }],
    ['cBGgAAAAAAAE', { playerOnRoll: 1, turn: 0, doubleOffered: true, matchLength: 5, jacoby: false }],
    ['QQmgAAAAAAAE', { cubeValue: 2, cubeOwner: 0, playerOnRoll: 1, turn: 1, matchLength: 5, jacoby: false }],
    ['AUmgAAAAAAAE', { cubeValue: 2, cubeOwner: 0, playerOnRoll: 0, turn: 1, resignationOffered: 'gammon', matchLength: 5, jacoby: false }],
  ])('%s decodes as the spec table says and encodes back', (id, fields) => {
    const decoded = ok(decodeMatchId(id));
    expect(decoded).toEqual({ ...base, ...fields });
    expect(encodeMatchId(decoded)).toBe(id);
  });

  it('refuses a score above the match length, dice above 6, Crawford in money play and malformed text', () => {
    expect(decodeMatchId(encodeMatchId({ ...base, matchLength: 3, score: [4, 0] }))).toMatchObject({ ok: false, error: { message: /score above/ } });
    expect(decodeMatchId(encodeMatchId({ ...base, dice: [7, 1] }))).toMatchObject({ ok: false, error: { message: /die above 6/ } });
    expect(decodeMatchId(encodeMatchId({ ...base, crawford: true }))).toMatchObject({ ok: false, error: { message: /Crawford/ } });
    expect(decodeMatchId('MAEAAAAAAAA')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: /12 characters/ } });
    expect(decodeMatchId('MAEAAAAAAA!A')).toMatchObject({ ok: false, error: { message: /alphabet/ } });
  });
});
