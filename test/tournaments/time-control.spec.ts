import { parseTimeControl } from '../../src/referee/core/game/clock.js';
import { eventHash, type StoredEvent } from '../../src/referee/core/stream.js';
import { isCompleteConfig, parseConfig } from '../../src/referee/core/tournament/config.js';
import { Driver, registry } from './support.js';

/** A tournament's time control as its configuration records it: the games' stored form, checked like the rest of the configuration. */

const swiss = { kind: 'backgammon', format: 'swiss', rounds: 1 };

describe("a tournament's time control", () => {
  it('is recorded in TournamentCreated in the form GameCreated records, and the stream refolds with it', () => {
    const d = new Driver({ ...swiss, timeControl: { kind: 'correspondence', perMoveSeconds: 86_400, bankCapSeconds: 259_200 } });
    const recorded = { kind: 'correspondence', perMoveMs: 86_400_000, bankCapMs: 259_200_000, vacationMs: 0 };
    expect(d.events[0].payload.config).toMatchObject({ timeControl: recorded });
    expect(isCompleteConfig(d.t.config, registry)).toBe(true);
    d.register('A');
    d.register('B');
    d.pair();
    expect(d.refold().config.timeControl).toEqual(recorded);
  });

  it('is absent without a clock (none, or not given), so configurations recorded before tournaments had clocks stay complete', () => {
    for (const timeControl of [undefined, null, { kind: 'none' }]) {
      const d = new Driver({ ...swiss, timeControl });
      expect(d.events[0].payload.config).not.toHaveProperty('timeControl');
      expect(isCompleteConfig(d.t.config, registry)).toBe(true);
    }
  });

  it('is refused as createGame refuses it', () => {
    for (const timeControl of [{ kind: 'fischer' }, { kind: 'fischer', baseSeconds: 5 }, { kind: 'correspondence', perMoveSeconds: 3600, baseSeconds: 60 }, 'fischer']) {
      const parsed = parseConfig({ ...swiss, timeControl }, registry);
      const game = parseTimeControl(timeControl);
      expect(game.ok).toBe(false);
      expect(parsed).toEqual(game);
    }
  });

  it('recorded in any other form breaks the stream at TournamentCreated, even rechained', () => {
    const d = new Driver({ ...swiss, timeControl: { kind: 'fischer', baseSeconds: 300 } });
    const [created] = d.events;
    const edited: StoredEvent = { ...created, payload: { ...created.payload, config: { ...d.t.config, timeControl: { kind: 'fischer', baseMs: 1, incrementMs: 0 } } } };
    expect(() => d.refold([{ ...edited, hash: eventHash(d.id, edited) }])).toThrow(/event 1: the configuration is not in its complete, validated form/);
  });
});
