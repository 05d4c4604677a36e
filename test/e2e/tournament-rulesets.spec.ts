import { serviceForSuite } from '../support/app.js';

/**
 * Issue 27, item 5: createTournament takes each game's typed ruleset, as that game's create
 * mutation takes it (same names, same presets), and stores what the game's ruleset check resolves;
 * the JSON form still works, and refuses an unknown option by listing the accepted ones.
 * tournamentRulesetCheck answers, without creating anything, what createTournament accepts or refuses.
 */
const suite = serviceForSuite();

const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) {
  __typename ... on TournamentCreated { tournament { events(first: 1) { edges { node { type payload } } } } } ... on Rejection { code message } } }`;

async function gql(query: string, variables: Record<string, unknown>) {
  const res = await suite.app.gql(query, variables);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

/** The ruleset a new tournament stores, or its refusal. */
async function created(input: Record<string, unknown>): Promise<{ ruleset?: unknown; code?: string; message?: string }> {
  const answer = (await gql(CREATE, { input })).createTournament;
  if (answer.__typename === 'Rejection') return { code: answer.code, message: answer.message };
  const first = answer.tournament.events.edges[0].node;
  expect(first.type).toBe('TournamentCreated');
  return { ruleset: first.payload.config.ruleset };
}

const checked = async (query: string, ruleset: unknown) => Object.values(await gql(query, { ruleset }))[0] as { ok: boolean; ruleset: unknown };

describe('tournament rulesets', () => {
  it("takes each game's typed ruleset and stores what its ruleset check resolves", async () => {
    const backgammon = { matchLength: 3, maxCube: null, openingRoll: 'REROLL_BOTH_DICE' };
    const bgCheck = await checked('query($ruleset: BackgammonRulesetInput) { backgammonRulesetCheck(ruleset: $ruleset) { ok ruleset } }', backgammon);
    expect(bgCheck.ok).toBe(true);
    expect(await created({ kind: 'backgammon', format: 'KNOCKOUT', backgammonRuleset: backgammon })).toEqual({ ruleset: bgCheck.ruleset });

    const cerke = { profile: 'STRICT', seasons: 1 };
    const cerkeCheck = await checked('query($ruleset: CerkeRulesetInput) { cerkeRulesetCheck(ruleset: $ruleset) { ok ruleset } }', cerke);
    expect(await created({ kind: 'cerke', format: 'ROUND_ROBIN', cerkeRuleset: cerke })).toEqual({ ruleset: cerkeCheck.ruleset });

    // createChickenFootGame's names: targetScore, the preset in the typed spelling; players is the table size.
    const typed = await created({ kind: 'chicken-foot', format: 'TABLES', rounds: 2, chickenFootRuleset: { preset: 'MALTA_CROSS', players: 4, targetScore: 100 } });
    const cfCheck = await checked('query($ruleset: JSON!) { chickenFootRulesetCheck(ruleset: $ruleset) { ok ruleset } }', { preset: 'malta-cross', players: 4, gameEnd: { targetScore: 100 } });
    expect(cfCheck.ok).toBe(true);
    expect(typed).toEqual({ ruleset: cfCheck.ruleset });
    // The JSON form, in the engine's names, is the same ruleset.
    expect(await created({ kind: 'chicken-foot', format: 'TABLES', rounds: 2, ruleset: { preset: 'MALTA_CROSS', players: 4, gameEnd: { targetScore: 100 } } })).toEqual(typed);
  });

  it('refuses an unknown JSON option by listing the accepted ones, and a typed ruleset for another game or given twice', async () => {
    const cf = await created({ kind: 'chicken-foot', format: 'TABLES', rounds: 2, ruleset: { players: 4, targetScore: 100 } });
    expect(cf).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('gameEnd') });
    expect(cf.message).toMatch(/allowed: .*players.*gameEnd/);
    const bg = await created({ kind: 'backgammon', format: 'KNOCKOUT', ruleset: { matchLength: 1, players: 2 } });
    expect(bg).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/"players".*allowed: matchLength/) });

    expect(await created({ kind: 'cerke', format: 'ROUND_ROBIN', backgammonRuleset: { matchLength: 1 } })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('backgammonRuleset is for kind "backgammon"'),
    });
    expect(await created({ kind: 'backgammon', format: 'KNOCKOUT', ruleset: { matchLength: 1 }, backgammonRuleset: { matchLength: 1 } })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await created({ kind: 'backgammon', format: 'KNOCKOUT', backgammonRuleset: { matchLength: 1 }, cerkeRuleset: { seasons: 1 } })).toMatchObject({ code: 'INVALID_INPUT' });
    // The typed ruleset is checked as the game's create mutation checks it.
    expect(await created({ kind: 'backgammon', format: 'KNOCKOUT', backgammonRuleset: { matchLength: 1, jacoby: true } })).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it("tournamentRulesetCheck answers what createTournament stores or refuses, for either form and any format, with the game check's warnings", async () => {
    const CHECK = `query($input: TournamentRulesetInput!) { tournamentRulesetCheck(input: $input) { ok message warnings ruleset seatCount } }`;
    const cases: Record<string, unknown>[] = [
      { kind: 'backgammon', format: 'SWISS', backgammonRuleset: { matchLength: 0, holland: true } },
      { kind: 'backgammon', format: 'DOUBLE_ELIMINATION', ruleset: { matchLength: 5, openingRoll: 'REROLL_BOTH_DICE' } },
      { kind: 'cerke', format: 'GROUPS_KNOCKOUT', cerkeRuleset: { profile: 'STRICT', seasons: 1 } },
      { kind: 'chicken-foot', format: 'TABLES', chickenFootRuleset: { preset: 'MALTA_CROSS', players: 4, targetScore: 100 } },
      // Refused: an unknown JSON option, a typed ruleset for another game or twice, options the game refuses, seats the format does not take, an unknown kind.
      { kind: 'chicken-foot', format: 'TABLES', ruleset: { players: 4, targetScore: 100 } },
      { kind: 'cerke', format: 'ROUND_ROBIN', backgammonRuleset: { matchLength: 1 } },
      { kind: 'backgammon', format: 'KNOCKOUT', ruleset: { matchLength: 1 }, backgammonRuleset: { matchLength: 1 } },
      { kind: 'backgammon', format: 'KNOCKOUT', backgammonRuleset: { matchLength: 1, jacoby: true } },
      { kind: 'chicken-foot', format: 'SWISS', chickenFootRuleset: { players: 4 } },
      { kind: 'backgammon', format: 'TABLES', backgammonRuleset: { matchLength: 1 } },
      { kind: 'chess', format: 'SWISS' },
    ];
    const oks: boolean[] = [];
    for (const input of cases) {
      const check = (await gql(CHECK, { input })).tournamentRulesetCheck;
      oks.push(check.ok);
      const tournament = await created({ ...input, rounds: ['SWISS', 'TABLES'].includes(input.format as string) ? 2 : undefined });
      if (tournament.code) expect([input, check]).toEqual([input, { ok: false, message: tournament.message, warnings: [], ruleset: null, seatCount: null }]);
      else expect([input, check]).toMatchObject([input, { ok: true, message: null, ruleset: tournament.ruleset }]);
    }
    expect(oks).toEqual([true, true, true, true, false, false, false, false, false, false, false]);
    expect((await gql(CHECK, { input: cases[3] })).tournamentRulesetCheck.seatCount).toBe(4);
    // The advice is the game's own check's.
    const holland = (await gql(CHECK, { input: cases[0] })).tournamentRulesetCheck;
    const own = await gql('query($ruleset: BackgammonRulesetInput) { backgammonRulesetCheck(ruleset: $ruleset) { warnings } }', { ruleset: cases[0].backgammonRuleset });
    expect(holland.warnings).toEqual(own.backgammonRulesetCheck.warnings);
    expect(holland.warnings).toEqual([expect.stringContaining('holland has no effect in money play')]);
  });
});
