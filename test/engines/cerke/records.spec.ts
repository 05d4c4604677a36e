import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { type CerkeAction, castValues } from '../../../src/games/cerke/engine/index.js';
import { readPekzepNumeral, toPekzepNumeral } from '../../../src/games/cerke/engine/numerals.js';
import { type ReplayEntry, playRandomGame, replay, seededRandom } from '../../../src/engines/kit/index.js';
import { engine, online, rules, strict } from './helpers.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/cerke');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');

const HAND_CHARS: Record<string, string> = {
  Unbeatable: '無抗行処',
  SocialOrder: '筆兵無傾',
  Culture: '地心',
  Cavalry: '馬弓兵',
  Attack: '行行',
  King: '王',
  Animals: '獣',
  Army: '戦集',
  Comrades: '助友',
  DeadlyArmy: '闇戦之集',
};

function importAndReplay(text: string) {
  const record = engine.importRecord!(text);
  if (!record.ok) throw new Error(record.error.message);
  const ruleset = engine.parseRuleset(record.value.ruleset);
  if (!ruleset.ok) throw new Error(ruleset.error.message);
  const result = replay(engine, ruleset.value, record.value.entries);
  if (!result.ok) throw new Error(`${record.value.labels?.[result.failure.index]}: ${result.failure.error.message}`);
  return { record: record.value, ruleset: ruleset.value, state: result.state };
}

const body = (text: string) =>
  text
    .replace(/ {4}/g, '\t')
    .split('\n')
    .filter((line) => !line.startsWith('{'))
    .join('\n')
    .trim();

describe('real cerke_online records replay to their expected results', () => {
  it.each(['cerke_online_kiaak_parser-case1-2022-05-31', 'cerke_online_kiaak_parser-case4-2022-09-08'])('%s', (name) => {
    const expected = JSON.parse(read(`${name}.expected.json`));
    const { record, state } = importAndReplay(read(`${name}.txt`));
    expect(record.labels).toHaveLength(record.entries.length);
    expect(new Set(record.labels!.filter((l) => / move \d+ \(/.test(l)).map((l) => l.replace(/ \((stepping cast|water cast|abandoned|completed)\)$/, ''))).size).toBe(expected.total_moves);
    expect({ IA: state.points[0], A: state.points[1] }).toEqual(expected.final_points);
    expect(engine.outcome(state)?.summary).toContain(expected.result.split(' ')[0]);
    expect(state.seasonResults).toHaveLength(expected.season_count);
    expected.seasons.forEach((season: Record<string, any>, i: number) => {
      const result = state.seasonResults[i];
      const end = season.declarations.at(-1);
      expect(result).toMatchObject({
        firstMover: season.first_mover,
        endedBy: { how: 'endSeason', side: season.winner },
        stake: season.stake,
        pointsDeclared: season.points_declared,
        pointsMoved: season.points_exchanged,
        pointsAfter: season.points_after,
      });
      expect(result.hands.map((h) => ('flash' in h && h.flash && h.name !== 'King' ? '同色' : '') + HAND_CHARS[h.name]).sort()).toEqual([...end.hands].sort());
    });
  });

  it('J4 (case2, cerke_online V4 with 片 kinds): four seasons, A reaches 40 in winter', () => {
    const { state } = importAndReplay(read('cerke_online_kiaak_parser-case2-2021-11-20.txt'));
    expect(state.seasonResults.map((s) => [s.firstMover, s.endedBy.side, s.pointsDeclared, s.pointsAfter.IA])).toEqual([
      ['IA', 'IA', 5, 25],
      ['IA', 'A', 5, 20],
      ['A', 'A', 13, 7],
      ['A', 'A', 7, 0],
    ]);
    expect(state.points).toEqual([0, 40]);
  });

  it('case3 (cerke_online V5, A first in every season): replays to A 40', () => {
    const { state } = importAndReplay(read('cerke_online_kiaak_parser-case3-2022-04-01.txt'));
    expect(state.seasonResults.map((s) => [s.firstMover, s.endedBy.side, s.pointsDeclared, s.pointsAfter.IA])).toEqual([
      ['A', 'IA', 5, 25],
      ['A', 'A', 15, 10],
      ['A', 'A', 10, 0],
    ]);
    expect(state.points).toEqual([0, 40]);
  });

  it('J2, J3 and the record vectors replay step by step', () => {
    const { record } = importAndReplay(read('cerke_online_kiaak_parser-case4-2022-09-08.txt'));
    const at = (label: string) => record.entries[record.labels!.findIndex((l) => l.startsWith(label))];
    expect(at('season 1, move 5 (IA): ZAI船ZIZA橋三手赤王')).toEqual({ kind: 'action', seat: 0, action: { type: 'move', from: 'ZAI', via: 'ZI', to: 'ZA' } });
    const e7 = record.labels!.findIndex((l) => l.startsWith('season 1, move 4 (A): MU弓MYZY橋一此無'));
    expect(record.entries.slice(e7, e7 + 3)).toEqual([
      { kind: 'action', seat: 1, action: { type: 'move', from: 'MU', via: 'MY', to: 'ZY' } },
      { kind: 'chance', values: [1, 0, 0, 0, 0] },
      { kind: 'action', seat: 1, action: { type: 'abandonStep' } },
    ]);
    const case3 = importAndReplay(read('cerke_online_kiaak_parser-case3-2022-04-01.txt')).record;
    const e8 = case3.labels!.findIndex((l) => l.includes('TIA将TAUZAI水無此無'));
    expect(case3.entries.slice(e8, e8 + 2)).toEqual([
      { kind: 'action', seat: 0, action: { type: 'move', from: 'TIA', via: 'TAU', to: 'ZAI' } },
      { kind: 'chance', values: [0, 0, 0, 0, 0] },
    ]);
  });
});

describe('exporting records', () => {
  it.each(['case1-2022-05-31', 'case3-2022-04-01', 'case4-2022-09-08'])('re-exports the V5 record %s move for move', (name) => {
    const text = read(`cerke_online_kiaak_parser-${name}.txt`);
    const { record, ruleset } = importAndReplay(text);
    const exported = engine.exportRecord!(ruleset, record.entries, []);
    expect(body(exported)).toBe(body(text));
    expect(exported.split('\n')[0]).toBe(text.split('\n')[0]);
  });

  it('writes the real kinds for an old record with 片', () => {
    const { record, ruleset, state } = importAndReplay(read('cerke_online_kiaak_parser-case2-2021-11-20.txt'));
    const exported = engine.exportRecord!(ruleset, record.entries, ['Alice', 'Bob']);
    expect(exported).toMatch(/^\{一位色:黒黒赤赤\}\n\{始時:\}\n\{終時:\}\n\{黒名:Alice\}\n\{赤名:Bob\}\nLAU弓TAUZAU橋二\tLE弓LILU橋三\n/);
    const again = importAndReplay(exported);
    expect(again.state.points).toEqual(state.points);
    expect(again.record.seatNames).toEqual(['Alice', 'Bob']);
  });

  it('a refereed game round-trips: export, import, same final points and seasons', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const game = playRandomGame(engine, online, seededRandom(seed));
      const text = engine.exportRecord!(online, game.entries, ['', '']);
      const { state } = importAndReplay(text);
      expect(state.points).toEqual(game.state.points);
      expect(state.seasonResults).toEqual(game.state.seasonResults.map((s) => ({ ...s })));
      expect(state.board).toEqual(game.state.board);
    }
  });

  it('games under other rulesets write their negative hands and ruleset, and round-trip', () => {
    const game = playRandomGame(engine, strict, seededRandom(11));
    const text = engine.exportRecord!(strict, game.entries, []);
    expect(text).toMatch(/皇再来|撃皇/);
    expect(text.split('\n')[3]).toBe('{ruleset:profile=strict}');
    expect(importAndReplay(text).state).toMatchObject({ points: game.state.points, seasonResults: game.state.seasonResults, board: game.state.board });
    for (const [input, tag] of [
      [{ seasons: 2, allowKut2Tam2: false }, '{ruleset:seasons=2,allowKut2Tam2=false}'],
      [{ profile: 'strict', seasons: 1, tamMunMok: 'allowed' }, '{ruleset:profile=strict,seasons=1,tamMunMok=allowed}'],
    ] as const) {
      const ruleset = rules(input);
      const other = playRandomGame(engine, ruleset, seededRandom(5));
      const exported = engine.exportRecord!(ruleset, other.entries, []);
      expect(exported).toContain(tag);
      const again = importAndReplay(exported);
      expect(again.ruleset).toEqual(ruleset);
      expect(again.state.points).toEqual(other.state.points);
    }
    expect(engine.importRecord!('{ruleset:seasons=3}\nMAU弓MAIMY橋一')).toMatchObject({ ok: false, error: { message: expect.stringContaining('"seasons" must be one of 1, 2, 4') } });
    expect(readPekzepNumeral('下十二')).toBe(-12);
    expect(engine.recordContentType).toBe('text/plain');
  });
});

const CASE4_CKKA = `{黒名:Alice}{赤名:Bob}
{https://example.invalid/game}
[Alice]20 [Bob]20
MAU弓MAIMY橋一, ME弓MIMU橋或.
ZO皇ZAIZAU　MU弓MYZY橋或此無
ZAI船ZIZA橋三 手赤王
[Alice]為(王)再行
TE虎ZA無撃裁 手船    MY弓MU無撃裁手黒弓
ZAU皇XAU[或]TY    MU弓MI無撃裁 手赤兵 {the Cavalry}
或為馬弓兵加王 再行
ZI船ZIA無撃裁手黒王
[Bob]為(同色王)終季 手二十
星一周
`;

describe('importing every version and CKKA notation 0', () => {
  const case1 = read('cerke_online_kiaak_parser-case1-2022-05-31.txt');

  it('reads V1-V3 copies: 片 kinds, no capture suffixes, the old header with one colour', () => {
    const lines = case1.split('\n');
    const old = ['{始時:2022-05-31T17:16:02.433Z}', '{一位色:黒}', '{終時:2022-05-31T18:13:52.357Z}', ...lines.slice(3)]
      .join('\r\n')
      .replace(/手[赤黒][船兵弓車虎馬筆巫将王]/g, '')
      .replace(/([KLNTZXCMP](?:AI|AU|IA|[AEIOUY]))[船兵弓車虎馬筆巫将王](?=[KLNTZXCMP])/g, '$1片');
    expect(old).toContain('CAI片CAMA橋一    PA片MA無撃裁');
    const { state } = importAndReplay('\uFEFF' + old);
    expect(state.points).toEqual([40, 0]);
    expect(state.seasonResults.map((s) => s.firstMover)).toEqual(['IA', 'IA', 'IA']);
  });

  it('reads CKKA: names, player line, separators, comments, 或 counts, bracket-less Tam2, separate captures, both declaration syntaxes', () => {
    const { record, state } = importAndReplay(CASE4_CKKA);
    expect(state.points).toEqual([0, 40]);
    expect(record.seatNames).toEqual(['Alice', 'Bob']);
    expect(state.seasonResults[0]).toMatchObject({ stake: 4, pointsDeclared: 20, endedBy: { side: 'A' } });
  });

  it('names the first move that breaks the rules', () => {
    const broken = read('cerke_online_kiaak_parser-case4-2022-09-08.txt').replace('MU弓MI無撃裁手赤兵', 'MU弓MA無撃裁手赤兵');
    expect(engine.importRecord!(broken)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^season 1, move 9 \(IA\): MU弓MA/) } });
  });

  it.each([
    ['a wrong capture suffix', (t: string) => t.replace('ZAI船ZIZA橋三手赤王', 'ZAI船ZIZA橋三手黒王'), /captured a red King/],
    ['a wrong kind', (t: string) => t.replace('MAU弓MAIMY橋一', 'MAU兵MAIMY橋一'), /is a Archer, not 兵|Archer, not 兵/],
    ['wrong points', (t: string) => t.replace('或為王而手二十', '或為王而手十'), /not 10/],
    ['a wrong hand list', (t: string) => t.replace('或為馬弓兵加王', '或為馬弓兵'), /forms 馬弓兵加王/],
    ['a missing declaration', (t: string) => t.replace('或為王\n再行', ''), /declaration must come first/],
    ['a cast that the rules do not call for', (t: string) => t.replace('ZI船ZIA無撃裁', 'ZI船ZIA水三'), /no cast/],
    ['a cast too short for the move', (t: string) => t.replace('ZAI船ZIZA橋三', 'ZAI船ZIZA橋一'), /after a cast of 1/],
    ['an unknown token', (t: string) => t.replace('ME弓MIMU橋五', 'ME弓MIMU5'), /move 2 \(A\): ME弓MIMU5: not a move/],
    ['the pre-standard rule', (t: string) => '{律:硬皇力}\n' + t, /pre-standard/],
    ['other starting points', (t: string) => '[a]25 [b]15\n' + t, /20 points/],
    ['no moves at all', () => '{一位色:黒}\n', /no moves/],
  ])('rejects %s with a precise message', (_what, edit, message) => {
    const result = engine.importRecord!(edit(read('cerke_online_kiaak_parser-case4-2022-09-08.txt')));
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(message) } });
  });

  it('chance values come from the record: a cast of k is k marked sticks', () => {
    expect(castValues(0)).toEqual([0, 0, 0, 0, 0]);
    expect(castValues(5)).toEqual([1, 1, 1, 1, 1]);
    const { record } = importAndReplay(read('cerke_online_kiaak_parser-case4-2022-09-08.txt'));
    expect(record.entries[0]).toEqual({ kind: 'chance', values: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(record.entries.slice(1, 4)).toEqual<ReplayEntry<CerkeAction>[]>([
      { kind: 'action', seat: 0, action: { type: 'move', from: 'MAU', via: 'MAI', to: 'MY' } },
      { kind: 'chance', values: [1, 0, 0, 0, 0] },
      { kind: 'action', seat: 0, action: { type: 'completeStep', to: 'MY' } },
    ]);
    expect(rules({})).toEqual(online);
  });
});

describe('Pekzep numerals', () => {
  it.each([
    [0, '無'],
    [5, '五'],
    [10, '十'],
    [11, '十一'],
    [20, '二十'],
    [99, '九十九'],
    [100, '百'],
    [101, '百一'],
    [110, '百十'],
    [125, '百二十五'],
    [199, '百九十九'],
    [210, '二百十'],
    [225, '二百二五'],
    [256, '二百五六'],
    [320, '三百二十'],
    [640, '六百四十'],
    [1000, '十百'],
    [1024, '十百二四'],
    [1200, '十二百'],
    [2200, '二二百'],
    [5678, '五六百七八'],
    [-12, '下十二'],
  ])('%i is written %s and read back', (n, text) => {
    expect(toPekzepNumeral(n)).toBe(text);
    expect(readPekzepNumeral(text)).toBe(n);
  });

  it('reads both spellings, Arabic digits and 万, and rejects malformed numerals', () => {
    expect(readPekzepNumeral('百二五')).toBe(125);
    expect(readPekzepNumeral('42')).toBe(42);
    expect(readPekzepNumeral('一万二')).toBe(10002);
    for (const bad of ['', '無無', '三無', '十下', '百百']) expect(readPekzepNumeral(bad)).toBeNull();
  });
});
