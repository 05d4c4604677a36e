/**
 * Hostile GraphQL fields over games: reads with odd ids, cursors and filters, and creations,
 * imports and joins each with at least one poison (a kind, ruleset, seat name or seed, record or
 * game the service refuses); moves are in game-moves.ts.
 */
import { resignField, submitActionField, typedMoveField } from './game-moves.js';
import type { HostileKit } from './kit.js';
import { GAME_ID, KIND, KINDS, ODD_NUMBERS, PROTO_KEYS } from './poisons.js';
import { type Field, type HeaderToken, ownObject, setOwn } from './request.js';

const CREATE_SEL = '{ __typename ... on Rejection { code message } ... on GameCreated { game { id } } }';
const JOIN_SEL = '{ __typename ... on Rejection { code message } ... on SeatJoined { seat } }';

/** A game's field: a read (most of its kinds), a creation, an import, a join or a move, each state-changing one poisoned. */
export function gameField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const v = (name: string) => `$${name}${sfx}`;
  const n = kit.int(100);
  if (n < 6) {
    return {
      op: 'query',
      name: 'game',
      text: `game(id: ${v('id')}) { id kind status version mySeat toAct view legalActions result seats { index name taken } fairness { seedCommitment } }`,
      defs: [`${v('id')}: ID!`],
      vars: { [`id${sfx}`]: kit.anyGameId() },
      token: kit.readToken(),
    };
  }
  if (n < 11) {
    const filter = kit.chance(0.2)
      ? kit.string()
      : ownObject([
          ['kind', kit.pick([kit.string(), 'duel', null])],
          ['status', kit.pick(['ACTIVE', 'WAITING', 'nope', kit.string(), null])],
          ['imported', kit.pick([true, false, null, 'yes'])],
          ...(kit.chance(0.2) ? ([[kit.pick(PROTO_KEYS), 1]] as [string, unknown][]) : []),
        ]);
    const after = kit.pick([
      kit.string(),
      Buffer.from(`${kit.pick(['2020-01-01T00:00:00.000Z', 'x', ''])}|${kit.string()}`).toString('base64url'),
      null,
      Buffer.from('2020-01-01T00:00:00.000Z|AAAAAAAAAAAA|x').toString('base64url'),
    ]);
    return {
      op: 'query',
      name: 'games',
      text: `games(filter: ${v('f')}, first: ${v('n')}, after: ${v('a')}) { nodes { id } pageInfo { endCursor hasNextPage } }`,
      defs: [`${v('f')}: GameFilterInput`, `${v('n')}: Int`, `${v('a')}: String`],
      vars: { [`f${sfx}`]: filter, [`n${sfx}`]: kit.pick([...ODD_NUMBERS, 20, 100, 101]), [`a${sfx}`]: after },
      token: kit.readToken(),
    };
  }
  if (n < 17) {
    return {
      op: 'query',
      name: 'gameEvents',
      text: `gameEvents(gameId: ${v('g')}, ${kit.pick(['after', 'before'])}: ${v('s')}, ${kit.pick(['first', 'last'])}: ${v('l')}) { nodes { seq type payload } pageInfo { endCursor hasNextPage } totalCount }`,
      defs: [`${v('g')}: ID!`, `${v('s')}: String`, `${v('l')}: Int`],
      vars: { [`g${sfx}`]: kit.anyGameId(), [`s${sfx}`]: kit.seqCursor(), [`l${sfx}`]: kit.pick([...ODD_NUMBERS, undefined]) },
      token: kit.readToken(),
    };
  }
  if (n < 20) {
    return {
      op: 'query',
      name: 'gameStateAt',
      text: `gameStateAt(gameId: ${v('g')}, seq: ${v('s')}) { seq view result }`,
      defs: [`${v('g')}: ID!`, `${v('s')}: Int!`],
      vars: { [`g${sfx}`]: kit.anyGameId(), [`s${sfx}`]: kit.pick(ODD_NUMBERS) },
      token: kit.readToken(),
    };
  }
  if (n < 22) {
    return { op: 'query', name: 'verifyGame', text: `verifyGame(gameId: ${v('g')}) { ok summary }`, defs: [`${v('g')}: ID!`], vars: { [`g${sfx}`]: kit.anyGameId() } };
  }
  if (n < 28) {
    const name = kit.pick([
      'backgammonPosition',
      'backgammonLegalPlays',
      'backgammonRecord',
      'cerkeState',
      'cerkeLegalActions',
      'cerkeRecord',
      'chickenFootTable',
      'chickenFootLegalActions',
      'chickenFootRecord',
    ]);
    const sel = name.endsWith('Record')
      ? ''
      : name === 'backgammonPosition'
        ? '{ positionId matchId }'
        : name === 'backgammonLegalPlays'
          ? '{ notation }'
          : name === 'cerkeState'
            ? '{ version }'
            : name === 'cerkeLegalActions'
              ? '{ type }'
              : name === 'chickenFootTable'
                ? '{ version hand }'
                : '{ seat canDraw }';
    return { op: 'query', name, text: `${name}(gameId: ${v('g')}) ${sel}`, defs: [`${v('g')}: ID!`], vars: { [`g${sfx}`]: kit.anyGameId() }, token: kit.readToken() };
  }
  if (n < 31) {
    return {
      op: 'query',
      name: 'backgammonPlays',
      text: `backgammonPlays(positionId: ${v('p')}, dice: ${v('d')}) { notation }`,
      defs: [`${v('p')}: String!`, `${v('d')}: [Int!]!`],
      vars: { [`p${sfx}`]: kit.pick([kit.string(), '4HPwATDgc/ABMA', '']), [`d${sfx}`]: kit.pick([[1, 2], [0, 7], [-1, 2147483647], [], [3, 3, 3], kit.json()]) },
    };
  }
  if (n < 34) {
    return {
      op: 'query',
      name: 'chickenFootRulesetCheck',
      text: `chickenFootRulesetCheck(ruleset: ${v('r')}) { ok message warnings ruleset }`,
      defs: [`${v('r')}: JSON!`],
      vars: { [`r${sfx}`]: kit.chance(0.5) ? kit.badRuleset() : kit.json() },
    };
  }
  if (n < 42) return createField(kit, sfx);
  if (n < 47) return createChickenFootField(kit, sfx);
  if (n < 52) return importField(kit, sfx);
  if (n < 58) return joinField(kit, sfx);
  if (n < 70) return submitActionField(kit, headerToken, sfx);
  if (n < 76) return resignField(kit, headerToken, sfx);
  if (n < 95) return typedMoveField(kit, headerToken, sfx);
  return {
    op: 'subscription',
    name: 'gameEvents',
    text: `gameEvents(gameId: ${v('g')}, afterSeq: ${v('s')}) { seq type }`,
    defs: [`${v('g')}: ID!`, `${v('s')}: Int`],
    vars: { [`g${sfx}`]: kit.anyGameId(), [`s${sfx}`]: kit.pick(ODD_NUMBERS) },
    token: kit.readToken(),
  };
}

function seatsInput(kit: HostileKit, poison: boolean, count: number): unknown {
  if (!poison) return kit.pick([undefined, null]);
  if (kit.chance(0.2)) return kit.pick([[], Array.from({ length: 9 }, () => ({})), 'seats', [1]]);
  const seats = Array.from({ length: count }, () => ownObject([]));
  const s = seats[kit.int(count)] as Record<string, unknown>;
  if (kit.chance(0.6)) s.name = kit.badName();
  else s.clientSeed = kit.badSeed();
  if (kit.chance(0.2)) setOwn(s, kit.pick(PROTO_KEYS), 1);
  return seats;
}

function createField(kit: HostileKit, sfx: string): Field {
  const kind = kit.pick(KINDS);
  const slots = kit.poisonOneOrTwo(['kind', 'ruleset', 'seats'], 0.3);
  const players = 2;
  const input = ownObject([
    ['kind', slots.has('kind') ? kit.unlike(KIND) : kind],
    ['ruleset', slots.has('ruleset') ? kit.badRuleset() : kind === 'chicken-foot' ? { players } : kit.pick([undefined, {}])],
    ['seats', seatsInput(kit, slots.has('seats'), players)],
  ]);
  if (kit.chance(0.05)) setOwn(input, kit.pick(['bogus', ...PROTO_KEYS]), 1);
  return { op: 'mutation', name: 'createGame', text: `createGame(input: $i${sfx}) ${CREATE_SEL}`, defs: [`$i${sfx}: CreateGameInput!`], vars: { [`i${sfx}`]: input } };
}

function createChickenFootField(kit: HostileKit, sfx: string): Field {
  const slots = new Set([kit.pick(['players', 'overrides', 'seats', 'deals'])]);
  const players = slots.has('players') ? kit.pick([-1, 0, 1, 9, 2147483647, -2147483648, 2147483648, 1.5, '2', null]) : 2;
  const ruleset = ownObject([
    ['players', players],
    ['overrides', slots.has('overrides') ? kit.badRuleset() : kit.pick([undefined, null])],
  ]);
  const deals = slots.has('deals')
    ? kit.pick([[{ hands: [[kit.string()], [kit.string()]], yard: [kit.string()] }], [{ hands: [], yard: [], finder: kit.pick(ODD_NUMBERS) }], 'deals', [ownObject([[kit.pick(PROTO_KEYS), 1]])]])
    : undefined;
  const input = ownObject([
    ['ruleset', ruleset],
    ['seats', seatsInput(kit, slots.has('seats'), 2)],
    ['deals', deals],
  ]);
  return { op: 'mutation', name: 'createChickenFootGame', text: `createChickenFootGame(input: $i${sfx}) ${CREATE_SEL}`, defs: [`$i${sfx}: ChickenFootGameInput!`], vars: { [`i${sfx}`]: input } };
}

function importField(kit: HostileKit, sfx: string): Field {
  const kindPoison = kit.chance(0.3);
  const record = kit.badRecord();
  return {
    op: 'mutation',
    name: 'importGame',
    text: `importGame(kind: $k${sfx}, record: $r${sfx}) ${CREATE_SEL}`,
    defs: [`$k${sfx}: String!`, `$r${sfx}: String!`],
    vars: { [`k${sfx}`]: kindPoison ? kit.unlike(KIND) : record.kind, [`r${sfx}`]: kindPoison ? kit.records[kit.int(3)].text : record.text },
  };
}

function joinField(kit: HostileKit, sfx: string): Field {
  const slots = kit.poisonOneOrTwo(['gameId', 'name', 'seed', 'seat'], 0.3);
  const input = ownObject([
    ['seat', slots.has('seat') ? kit.pick([-1, 0, 2, 99, 2147483647, -2147483648, 2147483648, 0.5, '1']) : kit.pick([undefined, null, 1])],
    ['name', slots.has('name') ? kit.badName() : kit.pick([undefined, null, 'Bob'])],
    ['clientSeed', slots.has('seed') ? kit.badSeed() : kit.pick([undefined, null, 'abc'])],
  ]);
  if (kit.chance(0.1)) setOwn(input, kit.pick(PROTO_KEYS), 1);
  const gameId = slots.has('gameId') ? kit.pick([kit.unlike(GAME_ID), 'AAAAAAAAAAAA', kit.games.duel.id]) : kit.games.waiting.id;
  return {
    op: 'mutation',
    name: 'joinGame',
    text: `joinGame(gameId: $g${sfx}, input: $i${sfx}) ${JOIN_SEL}`,
    defs: [`$g${sfx}: ID!`, `$i${sfx}: JoinGameInput`],
    vars: { [`g${sfx}`]: gameId, [`i${sfx}`]: input },
  };
}
