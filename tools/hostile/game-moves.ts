/**
 * Hostile moves: actions, resignations and typed moves, each with at least one poison (a game id,
 * move id, expected version, token or action the game refuses), or sent to a game of another kind.
 */
import type { SeededGame } from '../hostile-targets.js';
import type { HostileKit } from './kit.js';
import { BAD_VERSIONS, CLIENT_ID, GAME_ID, PROTO_KEYS } from './poisons.js';
import { type Field, type HeaderToken, ownObject } from './request.js';

const MOVE_SEL = '{ __typename ... on Rejection { code message currentVersion } ... on MoveAccepted { version } }';

/** The arguments every move takes (its turn), as variables, in the field and in its definitions. */
const turnArgs = (sfx: string) => `gameId: $g${sfx}, moveId: $m${sfx}, expectedVersion: $e${sfx}`;
const turnDefs = (sfx: string) => [`$g${sfx}: ID!`, `$m${sfx}: String!`, `$e${sfx}: Int`];
const turnVars = (a: MoveArgs, sfx: string): Record<string, unknown> => ({ [`g${sfx}`]: a.gameId, [`m${sfx}`]: a.moveId, [`e${sfx}`]: a.expectedVersion });

type MoveArgs = ReturnType<typeof moveArgs>;

/**
 * The arguments of a move on `target`, at least one of them poisoned. `headerToken` is the
 * request's token when it is fixed by another field of the same document (aliases); then the
 * poison is never the token alone.
 */
function moveArgs(kit: HostileKit, target: SeededGame, headerToken: HeaderToken, withAction: boolean) {
  const slots = ['gameId', 'moveId', 'version', ...(withAction ? ['action'] : [])];
  if (headerToken === null) slots.push('token');
  const poisoned = kit.poisonSome(slots, 0.25);
  let gameId: unknown = target.id;
  let owner: SeededGame | null = target;
  if (poisoned.has('gameId')) {
    owner = null;
    // Another real game, never the one the request's token belongs to.
    const others = kit.all.filter((g) => g !== target && !(headerToken && g.tokens.includes(headerToken)));
    if (kit.chance(0.3) && others.length > 0) {
      const other = kit.pick(others);
      gameId = other.id;
      owner = other;
    } else gameId = kit.chance(0.2) ? 'AAAAAAAAAAAA' : kit.unlike(GAME_ID);
  }
  let token: string | undefined;
  if (headerToken !== null) token = headerToken;
  else if (poisoned.has('token')) {
    const others = kit.all.filter((g) => g !== owner);
    token = kit.pick([undefined, 'arb_not-a-token', 'x'.repeat(300), kit.pick(kit.pick(others).tokens)]);
  } else token = kit.pick(target.tokens);
  // A real game id poisons only with a token of another game (or none).
  if (owner && owner !== target && token !== undefined && owner.tokens.includes(token)) token = undefined;
  const moveId = poisoned.has('moveId') ? kit.unlike(CLIENT_ID) : kit.clientId();
  const expectedVersion = poisoned.has('version') ? kit.pick(BAD_VERSIONS) : kit.pick([null, undefined]);
  const action = withAction ? (poisoned.has('action') ? kit.badAction() : kit.json()) : undefined;
  return { gameId, token, moveId, expectedVersion, action };
}

/** An action for a game, poisoned in at least one argument. */
export function submitActionField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const target = kit.game();
  const a = moveArgs(kit, target, headerToken, true);
  const v = (name: string) => `$${name}${sfx}`;
  return {
    op: 'mutation',
    name: 'submitAction',
    text: `submitAction(gameId: ${v('g')}, moveId: ${v('m')}, action: ${v('a')}, expectedVersion: ${v('e')}) ${MOVE_SEL}`,
    defs: [`${v('g')}: ID!`, `${v('m')}: String!`, `${v('a')}: JSON!`, `${v('e')}: Int`],
    vars: { [`g${sfx}`]: a.gameId, [`m${sfx}`]: a.moveId, [`a${sfx}`]: a.action, [`e${sfx}`]: a.expectedVersion },
    token: a.token,
  };
}

/** A resignation, poisoned in at least one argument. */
export function resignField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const a = moveArgs(kit, kit.game(), headerToken, false);
  return { op: 'mutation', name: 'resignGame', text: `resignGame(${turnArgs(sfx)}) ${MOVE_SEL}`, defs: turnDefs(sfx), vars: turnVars(a, sfx), token: a.token };
}

/** A typed move (backgammon, Cerke, Chicken Foot), poisoned, or sent to a game of another kind. */
export function typedMoveField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const family = kit.pick(['backgammon', 'cerke', 'chicken-foot']);
  const wrongKind = kit.chance(0.3);
  const target = wrongKind ? kit.pick(kit.all.filter((g) => g.kind !== family)) : kit.all.find((g) => g.kind === family && g !== kit.games.imported)!;
  // A game of another kind refuses the move whatever else it says; otherwise poison the turn.
  const a = wrongKind ? { ...moveArgs(kit, target, headerToken, false), gameId: target.id } : moveArgs(kit, target, headerToken, false);
  if (wrongKind && headerToken === null) a.token = kit.pick(target.tokens);
  const v = (name: string) => `$${name}${sfx}`;
  const vars = turnVars(a, sfx);
  const str = () => kit.pick([kit.string(), 'ZO', 'ZAI', 'hub', '5-8', '13/8']);
  let name: string;
  let extraDefs: string[] = [];
  let extraArgs = '';
  if (family === 'backgammon') {
    name = kit.pick([
      'backgammonRoll',
      'backgammonDouble',
      'backgammonTake',
      'backgammonDrop',
      'backgammonBeaver',
      'backgammonRaccoon',
      'backgammonAcceptResignation',
      'backgammonRejectResignation',
      'backgammonPlay',
      'backgammonOfferResignation',
    ]);
    if (name === 'backgammonPlay') {
      extraDefs = [`${v('x')}: [BackgammonCheckerMoveInput!]!`];
      extraArgs = `, moves: ${v('x')}`;
      vars[`x${sfx}`] = kit.pick([
        [{ from: 13, to: 8 }],
        [{ from: -1, to: 2147483647 }],
        [],
        Array.from({ length: 50 }, () => ({ from: 1, to: 0 })),
        [
          ownObject([
            ['from', 1],
            ['to', 2],
            [kit.pick(PROTO_KEYS), 1],
          ]),
        ],
        kit.json(),
      ]);
    } else if (name === 'backgammonOfferResignation') {
      extraDefs = [`${v('x')}: BackgammonResignationLevel!`];
      extraArgs = `, level: ${v('x')}`;
      vars[`x${sfx}`] = kit.pick(['SINGLE', 'GAMMON', 'single', kit.string()]);
    }
  } else if (family === 'cerke') {
    name = kit.pick(['cerkeMove', 'cerkeCompleteStep', 'cerkeAbandonStep', 'cerkeDrop', 'cerkeMoveTam2', 'cerkeDeclareContinue', 'cerkeDeclareEndSeason']);
    const args: Record<string, [string, unknown]> = {
      cerkeMove: ['from: String!, to: String!, via: String', { from: str(), to: str(), via: kit.pick([undefined, str()]) }],
      cerkeCompleteStep: ['to: String!', { to: str() }],
      cerkeDrop: ['colour: CerkeColour!, kind: CerkeKind!, to: String!', { colour: kit.pick(['RED', 'BLACK', 'red', kit.string()]), kind: kit.pick(['KING', 'TAM2', 'x', kit.string()]), to: str() }],
      cerkeMoveTam2: [
        'firstSquare: String!, to: String!, via: String, stepDuring: CerkeStepDuring',
        { firstSquare: str(), to: str(), via: kit.pick([undefined, str()]), stepDuring: kit.pick([undefined, 'FIRST_HALF', kit.string()]) },
      ],
    };
    const extra = args[name];
    if (extra) {
      const parts = extra[0].split(', ').map((p) => p.split(': '));
      extraDefs = parts.map(([k, t]) => `${v(k)}: ${t}`);
      extraArgs = parts.map(([k]) => `, ${k}: ${v(k)}`).join('');
      for (const [k, val] of Object.entries(extra[1] as Record<string, unknown>)) vars[`${k}${sfx}`] = val;
    }
  } else {
    name = kit.pick(['chickenFootPlay', 'chickenFootDraw', 'chickenFootPass']);
    if (name === 'chickenFootPlay') {
      extraDefs = [`${v('t')}: String!`, `${v('o')}: String!`, `${v('n')}: Boolean`];
      extraArgs = `, tile: ${v('t')}, target: ${v('o')}, announce: ${v('n')}`;
      Object.assign(vars, { [`t${sfx}`]: str(), [`o${sfx}`]: str(), [`n${sfx}`]: kit.pick([undefined, true, 'yes']) });
    }
  }
  return { op: 'mutation', name, text: `${name}(${turnArgs(sfx)}${extraArgs}) ${MOVE_SEL}`, defs: [...turnDefs(sfx), ...extraDefs], vars, token: a.token };
}
