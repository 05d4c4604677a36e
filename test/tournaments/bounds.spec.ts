import { CORRECTION_LIMIT, PARTICIPANT_LIMIT } from '../../src/referee/core/tournament/decider.js';
import { Driver } from './support.js';

/** What one tournament may hold, through its decider: participants (P2.8) and corrections per board (R3.8). */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 1 } };

describe("a tournament's bounds", () => {
  it(`takes ${PARTICIPANT_LIMIT} participants and refuses one more with TOO_MANY_PARTICIPANTS (P2.8)`, () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 3 });
    for (let i = 1; i <= PARTICIPANT_LIMIT; i++) d.register(`n${i}`);
    expect(() => d.register('one-too-many')).toThrow(/^TOO_MANY_PARTICIPANTS/);
    expect(d.t.participants).toHaveLength(PARTICIPANT_LIMIT);
  });

  it(`corrects a board's result ${CORRECTION_LIMIT} times and refuses one more with TOO_MANY_CORRECTIONS (R3.8)`, () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 2 });
    for (const name of ['A', 'B', 'C', 'D']) d.register(name);
    d.pair();
    const [first, second] = d.openGames();
    d.finish(first, [0], [1, 0]);
    const recorded = d.t.rounds[0].boards.find((b) => b.board === first.board)!.results[first.game.gameId];
    const correct = (i: number) => d.run({ type: 'RecordResult', result: { ...recorded, reason: `correction ${i}` }, correction: true });
    for (let i = 1; i <= CORRECTION_LIMIT; i++) correct(i);
    expect(() => correct(CORRECTION_LIMIT + 1)).toThrow(/^TOO_MANY_CORRECTIONS/);
    // The bound is the board's: another board's result is recorded and corrected as before.
    d.finish(second, [1], [0, 1]);
    const other = d.t.rounds[0].boards.find((b) => b.board === second.board)!.results[second.game.gameId];
    d.run({ type: 'RecordResult', result: { ...other, reason: 'wrong winner' }, correction: true });
    // The stream refolds with its corrections counted the same.
    expect(d.refold().rounds[0].boards.map((b) => b.corrections ?? 0)).toEqual(d.t.rounds[0].boards.map((b) => b.corrections ?? 0));
  });
});
