import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, type GraphQLSchema, isUnionType, printType } from 'graphql';
import { buildSchemaSdl, committedSchema } from '../../scripts/print-schema.js';
import { GAMES } from '../../src/games/index.js';
import { duel } from '../support/duel-package.js';

const ROOT = resolve(import.meta.dirname, '../..');

const membersOf = (schema: GraphQLSchema, union: string): string[] => {
  const type = schema.getType(union);
  if (!isUnionType(type)) throw new Error(`${union} is not a union`);
  return type.getTypes().map((t) => t.name);
};

describe('a game is one folder and one line', () => {
  it('a package added to the list gives the schema its typed state, moves, outcome, actions and queries, and changes nothing else', async () => {
    const committed = buildSchema(committedSchema()!);
    const withDuel = buildSchema(await buildSchemaSdl([...GAMES, duel]));
    expect(membersOf(withDuel, 'GameState')).toEqual([...membersOf(committed, 'GameState'), 'DuelState']);
    expect(membersOf(withDuel, 'LegalMoves')).toEqual([...membersOf(committed, 'LegalMoves'), 'DuelLegalMoves']);
    expect(membersOf(withDuel, 'OutcomeDetail')).toEqual([...membersOf(committed, 'OutcomeDetail'), 'DuelOutcome']);
    expect(membersOf(withDuel, 'GameAction')).toEqual([...membersOf(committed, 'GameAction'), 'DuelCardPlayed']);
    expect(withDuel.getQueryType()?.getFields().duelState).toBeDefined();
    // Its state answers the clock every typed state has.
    expect(Object.keys((withDuel.getType('DuelState') as { getFields(): object }).getFields())).toContain('clock');

    const changed = Object.keys(committed.getTypeMap()).filter((name) => !name.startsWith('__') && printType(committed.getType(name)!) !== printType(withDuel.getType(name)!));
    expect(changed.sort()).toEqual(['GameAction', 'GameState', 'LegalMoves', 'OutcomeDetail', 'Query']);
  });

  it("names each shipped game's board and example bot, as the page and the examples run them", () => {
    const boards = readFileSync(resolve(ROOT, 'web/src/boards/index.ts'), 'utf8');
    const examples = readFileSync(resolve(ROOT, 'clients/typescript/examples/all.ts'), 'utf8');
    for (const { engine, board, exampleBot } of GAMES) {
      expect({ kind: engine.kind, board: board && existsSync(resolve(ROOT, board)), bot: exampleBot && existsSync(resolve(ROOT, exampleBot)) }).toEqual({ kind: engine.kind, board: true, bot: true });
      const module = (path: string) => `'./${path.split('/').pop()!.replace(/\.ts$/, '.js')}'`;
      expect(boards).toContain(module(board!));
      expect(examples).toContain(module(exampleBot!));
    }
  });
});
