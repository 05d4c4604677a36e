import { eventHash } from '../../src/referee/core/stream.js';
import { parseConfig } from '../../src/referee/core/tournament/config.js';
import type { ParticipantRegisteredPayload } from '../../src/referee/core/tournament/events.js';
import { Driver, names, registry } from './support.js';

/**
 * Ratings in tournaments (docs/ratings.md, "Tournaments"): a rated tournament registers players
 * only, and the rating a participant was registered with, and the pool's event it was taken
 * from, are in its registration, so the offline fold pairs round 1 again from the events alone.
 */
const backgammon = { kind: 'backgammon', ruleset: { matchLength: 1 } };
const pool = (seq: number) => ({ pool: 'ratings:backgammon:untimed', seq });

describe('rated tournaments', () => {
  it('takes rated: true or false, written only when true', () => {
    expect(parseConfig({ ...backgammon, format: 'swiss', rounds: 1, rated: 'yes' }, registry)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const on = parseConfig({ ...backgammon, format: 'swiss', rounds: 1, rated: true }, registry);
    expect(on.ok && on.value.rated).toBe(true);
    const off = parseConfig({ ...backgammon, format: 'swiss', rounds: 1, rated: false }, registry);
    expect(off.ok && 'rated' in off.value).toBe(false);
  });

  it('registers players only, one at a time and in bulk, storing nothing for a refused one', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 2, rated: true });
    expect(() => d.register('Guest')).toThrow(/^RATED_NEEDS_PLAYERS/);
    const entry = (name: string, player: string | null) => ({ participantId: `p-${name}`, name, rating: 0, player });
    expect(() => d.run({ type: 'RegisterParticipants', entries: [entry('Ann', 'pl-ann'), entry('Guest', null)] })).toThrow(/^RATED_NEEDS_PLAYERS/);
    expect(d.t.participants).toEqual([]);
    d.run({ type: 'RegisterParticipants', entries: [entry('Ann', 'pl-ann'), entry('Bob', 'pl-bob')] });
    expect(d.t.participants.map((p) => p.player)).toEqual(['pl-ann', 'pl-bob']);
  });
});

describe('ratings taken for seeding', () => {
  it('records the pool event a rating came from, and round 1 is paired by it again from the events alone', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 2 });
    // Registered in the order C, A, D, B; rated A 1710 > B 1620 > C 1540 > D 1480.
    const taken: [string, number, number][] = [
      ['C', 1540, 7],
      ['A', 1710, 9],
      ['D', 1480, 3],
      ['B', 1620, 8],
    ];
    for (const [name, rating, seq] of taken) d.run({ type: 'RegisterParticipant', participantId: `p-${name}`, name, rating, player: `pl-${name}`, ratingFrom: pool(seq) });
    const registered = d.events.filter((e) => e.type === 'ParticipantRegistered').map((e) => e.payload as unknown as ParticipantRegisteredPayload);
    expect(registered.map((p) => [p.name, p.rating, p.ratingFrom])).toEqual(taken.map(([name, rating, seq]) => [name, rating, pool(seq)]));

    d.pair();
    // S5: the top half by rating meets the bottom half: A-C, B-D.
    const boards = d.t.rounds[0].boards.map((b) => names(d.t, b.seats).sort());
    expect(boards).toEqual([
      ['A', 'C'],
      ['B', 'D'],
    ]);
    // The fold that pairs every round again agrees; with another rating in a registration it does not.
    expect(d.refold().rounds[0].boards.map((b) => b.seats)).toEqual(d.t.rounds[0].boards.map((b) => b.seats));
    // D's rating forged to 1800, every hash rechained so only the pairing rules can tell.
    const edited = d.events.map((e) => ({ ...e }));
    const at = edited.findIndex((e) => e.type === 'ParticipantRegistered' && e.payload.name === 'D');
    edited[at] = { ...edited[at], payload: { ...edited[at].payload, rating: 1800 } };
    for (let k = at; k < edited.length; k++) {
      if (k > at) edited[k].prevHash = edited[k - 1].hash;
      edited[k].hash = eventHash(d.id, edited[k]);
    }
    expect(() => d.refold(edited)).toThrow(/pair/i);
  });
});
