/**
 * Hostile GraphQL fields over tournaments: creations with a configuration out of its bounds,
 * commands each with at least one poison (tournament-commands.ts), and reads with odd ids, rounds
 * and cursors.
 */
import type { HostileKit } from './kit.js';
import { GAME_ID, KIND, ODD_NUMBERS, PROTO_KEYS, REFUSED_CHARS } from './poisons.js';
import { type Field, type HeaderToken, ownObject, setOwn } from './request.js';
import { anyTournamentId, badReason, commandId, commandToken, roundSettings, strangerParticipant, tournamentCommand } from './tournament-commands.js';

/** What an accepted tournament command answers (none may be accepted here), or its refusal. */
const TOURNAMENT_FIELDS = '{ id status version participants { id } }';
const TOURNAMENT_SEL = `{ __typename ... on Rejection { code message } ... on Tournament ${TOURNAMENT_FIELDS} }`;

/** A tournament's field: a command (most), each poisoned, a read or a subscription. */
export function tournamentField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const n = kit.int(100);
  if (n < 14) return createTournamentField(kit, sfx);
  if (n < 26) return registerField(kit, headerToken, sfx);
  if (n < 36) return withdrawField(kit, headerToken, sfx);
  if (n < 48) return setPairingsField(kit, headerToken, sfx);
  if (n < 55) return pairRoundField(kit, headerToken, sfx);
  if (n < 75) return recordResultField(kit, headerToken, sfx);
  if (n < 80) return finishField(kit, headerToken, sfx);
  if (n < 90) {
    const read = kit.pick([...ODD_NUMBERS, undefined]);
    return {
      op: 'query',
      name: 'tournament',
      text: `tournament(id: $i${sfx}) { id status version participants { id name } rounds { round boards { board games { gameId game { id status } } } } standings(afterRound: $a${sfx}) { rank tp } crosstable(afterRound: $c${sfx}) { participantId } events(after: $s${sfx}) { nodes { seq type } pageInfo { hasNextPage } } }`,
      defs: [`$i${sfx}: ID!`, `$a${sfx}: Int`, `$c${sfx}: Int`, `$s${sfx}: String`],
      vars: { [`i${sfx}`]: anyTournamentId(kit), [`a${sfx}`]: read, [`c${sfx}`]: kit.pick([read, ...ODD_NUMBERS]), [`s${sfx}`]: kit.pick([undefined, kit.seqCursor()]) },
      token: kit.readToken(),
    };
  }
  if (n < 96) {
    return {
      op: 'query',
      name: 'tournaments',
      text: `tournaments(first: $f${sfx}, after: $a${sfx}) { edges { cursor node { id status } } pageInfo { endCursor hasNextPage } }`,
      defs: [`$f${sfx}: Int`, `$a${sfx}: String`],
      vars: { [`f${sfx}`]: kit.pick([...ODD_NUMBERS, 20, 100, 101]), [`a${sfx}`]: kit.pick([null, anyTournamentId(kit), `${kit.tournaments.finished.id}\u0000`]) },
      token: kit.readToken(),
    };
  }
  return {
    op: 'subscription',
    name: 'tournamentEvents',
    text: `tournamentEvents(tournamentId: $t${sfx}, afterSeq: $s${sfx}) { seq type }`,
    defs: [`$t${sfx}: ID!`, `$s${sfx}: Int`],
    vars: { [`t${sfx}`]: anyTournamentId(kit), [`s${sfx}`]: kit.pick(ODD_NUMBERS) },
    token: kit.readToken(),
  };
}

/** A configuration out of its bounds in at least one place; anyone may create a tournament, so the input is the only poison. */
function createTournamentField(kit: HostileKit, sfx: string): Field {
  const base = kit.pick<[string, Record<string, unknown>]>([
    ['swiss', { kind: 'backgammon', ruleset: kit.pick([undefined, { matchLength: 1 }]), format: 'SWISS', rounds: kit.pick([1, 5, 64]) }],
    ['roundRobin', { kind: 'cerke', format: kit.pick(['ROUND_ROBIN', 'DOUBLE_ROUND_ROBIN']) }],
    ['knockout', { kind: 'backgammon', format: 'KNOCKOUT', gamesPerMatch: kit.pick([undefined, 1, 3]), koTieRule: kit.pick([undefined, ['REPLAY(1)', 'LOTS']]) }],
    ['tables', { kind: 'chicken-foot', ruleset: { players: 4 }, format: 'TABLES', rounds: 3, minSeats: kit.pick([undefined, 3]) }],
  ]);
  const [format, input] = [base[0], ownObject(Object.entries(base[1]))];
  input.name = kit.pick([undefined, 'Spring open', '中文 open', 'n'.repeat(120)]);
  const slots = ['name', 'kind', 'ruleset', 'format', 'rounds', 'points', 'byes', 'tieBreaks', 'choices', 'knockout', 'placement', 'minSeats', 'flags', 'timeControl', 'key'];
  const poisoned = kit.poisonOneOrTwo(slots, 0.2);
  if (poisoned.has('name')) input.name = kit.chance(0.8) ? kit.insert(kit.pick(['Spring open', '', 'Club']), kit.pick(REFUSED_CHARS)) : 'n'.repeat(121 + kit.int(500));
  if (poisoned.has('kind')) input.kind = kit.unlike(KIND);
  if (poisoned.has('ruleset')) input.ruleset = kit.badRuleset();
  if (poisoned.has('format')) input.format = kit.pick([format === 'tables' ? 'SWISS' : 'TABLES', format === 'tables' ? 'KNOCKOUT' : 'TABLES', 'swiss', 'NOPE', '', null, kit.string()]);
  if (poisoned.has('rounds')) input.rounds = format === 'swiss' || format === 'tables' ? kit.pick([0, 65, -1, null, 2147483647, -2147483648, 1.5, '3']) : kit.pick([1, 5, 64]);
  if (poisoned.has('points'))
    input.points = kit.pick<Record<string, unknown>>([
      { win: '0' },
      { win: '1', draw: '2' },
      { draw: '1', loss: '2' },
      { draw: '1/3' },
      { loss: '-1' },
      { win: 'abc' },
      { win: '½' },
      ownObject([
        ['win', '1'],
        [kit.pick(PROTO_KEYS), '1'],
      ]),
    ]);
  if (poisoned.has('byes')) {
    const [key, value] = kit.pick<[string, unknown]>([
      ['byePoints', format === 'tables' ? '-1' : '2'],
      ['lateEntryPoints', '5'],
      ['requestedByePoints', kit.pick(['7', 'x'])],
      ['maxRequestedByes', kit.pick([-1, 65, 2147483647])],
      ['tableByePoints', kit.pick(['-1', 'x'])],
    ]);
    input[key] = value;
  }
  // A knockout ranks by placings: it reads no tie-breaks, so its poison is elsewhere.
  if (poisoned.has('tieBreaks')) {
    if (format === 'knockout') input.gamesPerMatch = 0;
    else input.tieBreaks = kit.pick([['NOPE'], ['BH', 'BH'], [kit.pick(PROTO_KEYS)], ['bh'], [kit.string()]]);
  }
  if (poisoned.has('choices')) {
    const key = kit.pick(['rrNumbering', 'koSeeding', 'tableSeating']);
    input[key] = kit.unlike(/^(lots|rating|manual|greedy|avoidRepeats)$/);
  }
  if (poisoned.has('knockout')) {
    if (kit.chance(0.5)) input.gamesPerMatch = kit.pick([0, 16, -1, 2147483647]);
    else input.koTieRule = kit.pick([['REPLAY(0)'], ['LOTS', 'GAME_POINTS'], ['x'], [kit.pick(PROTO_KEYS)], ['REPLAY(1000000000)']]);
  }
  if (poisoned.has('placement'))
    input.placementPoints = kit.pick<unknown>([
      { '1': ['1'] },
      { '3': ['1', '2', '0'] },
      { '3': ['2', '1'] },
      { '3': ['2', '1', '-1'] },
      ownObject([[kit.pick(PROTO_KEYS), ['1', '0']]]),
      'x',
      [],
      kit.deep(),
    ]);
  if (poisoned.has('minSeats')) input.minSeats = format === 'tables' ? kit.pick([0, 1, 5, 99]) : kit.pick([3, 1]);
  if (poisoned.has('flags')) input[kit.pick(['openRegistration', 'selfWithdrawal'])] = kit.pick(['yes', 1, 'true']);
  if (poisoned.has('timeControl'))
    input.timeControl = kit.pick<unknown>([
      { kind: 'FISCHER' },
      { kind: 'FISCHER', baseSeconds: 1 },
      { kind: 'FISCHER', baseSeconds: 3600, incrementSeconds: -1 },
      { kind: 'CORRESPONDENCE', perMoveSeconds: 5 },
      { kind: 'NOPE' },
      ownObject([
        ['kind', 'FISCHER'],
        ['baseSeconds', 3600],
        [kit.pick(PROTO_KEYS), 1],
      ]),
    ]);
  if (poisoned.has('key')) setOwn(input, kit.pick(['bogus', ...PROTO_KEYS]), 1);
  return {
    op: 'mutation',
    name: 'createTournament',
    text: `createTournament(input: $i${sfx}) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } }`,
    defs: [`$i${sfx}: CreateTournamentInput!`],
    vars: { [`i${sfx}`]: input },
    changes: true,
  };
}

function registerField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'register', ['name', 'rating', 'commandId'], headerToken);
  const name = c.poisoned.has('name') ? kit.pick([kit.badName(), null]) : kit.pick(['Zed', 'Ann Lee', '中文', 'é'.repeat(64), "O'Neil"]);
  const rating = c.poisoned.has('rating') ? kit.pick([-1, 10_001, 2147483647, -2147483648, 2147483648, 0.5, '5']) : kit.pick([undefined, null, 0, 1500, 10_000]);
  return {
    op: 'mutation',
    name: 'registerParticipant',
    text: `registerParticipant(tournamentId: $t${sfx}, name: $n${sfx}, rating: $r${sfx}, commandId: $c${sfx}) { __typename ... on ParticipantRegistered { participantId participantToken tournament ${TOURNAMENT_FIELDS} } ... on Rejection { code message } }`,
    defs: [`$t${sfx}: ID!`, `$n${sfx}: String!`, `$r${sfx}: Int`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`n${sfx}`]: name, [`r${sfx}`]: rating, [`c${sfx}`]: commandId(kit, c.poisoned) },
    token: commandToken(kit, 'register', c.label, c.poisoned, headerToken),
    changes: true,
  };
}

function withdrawField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'withdraw', ['participant', 'reason', 'commandId'], headerToken);
  const active = c.target?.participants.filter((p) => p.id !== kit.tournaments.running.withdrawn) ?? [];
  const participantId = c.poisoned.has('participant') || active.length === 0 ? strangerParticipant(kit, c.label, true) : kit.pick(active).id;
  const reason = c.poisoned.has('reason') ? badReason(kit) : kit.pick([undefined, null, '', 'unwell']);
  return {
    op: 'mutation',
    name: 'withdrawParticipant',
    text: `withdrawParticipant(tournamentId: $t${sfx}, participantId: $p${sfx}, reason: $r${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
    defs: [`$t${sfx}: ID!`, `$p${sfx}: ID!`, `$r${sfx}: String`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`p${sfx}`]: participantId, [`r${sfx}`]: reason, [`c${sfx}`]: commandId(kit, c.poisoned) },
    token: commandToken(kit, 'withdraw', c.label, c.poisoned, headerToken, participantId),
    changes: true,
  };
}

function setPairingsField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'settings', ['settings', 'commandId'], headerToken);
  return {
    op: 'mutation',
    name: 'setPairings',
    text: `setPairings(tournamentId: $t${sfx}, input: $i${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
    defs: [`$t${sfx}: ID!`, `$i${sfx}: RoundSettingsInput!`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`i${sfx}`]: roundSettings(kit, c.label, c.poisoned.has('settings')), [`c${sfx}`]: commandId(kit, c.poisoned) },
    token: commandToken(kit, 'settings', c.label, c.poisoned, headerToken),
    changes: true,
  };
}

function pairRoundField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'pair', ['round', 'commandId'], headerToken);
  const round = c.poisoned.has('round') ? kit.pick([0, -1, 2, 3, 99, 2147483647, -2147483648, 1.5, '1']) : kit.pick([undefined, null, 1]);
  return {
    op: 'mutation',
    name: 'pairRound',
    text: `pairRound(tournamentId: $t${sfx}, round: $r${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
    defs: [`$t${sfx}: ID!`, `$r${sfx}: Int`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`r${sfx}`]: round, [`c${sfx}`]: commandId(kit, c.poisoned) },
    token: commandToken(kit, 'pair', c.label, c.poisoned, headerToken),
    changes: true,
  };
}

/**
 * An organizer's result, with or without a record (1 in 3 carries the backgammon fixture,
 * which imports). A poison that is checked after the record is imported (an outcome the record
 * does not give, a correction of no result, a command id, a finished tournament) is one too:
 * the import must not stay when the result is refused.
 */
function recordResultField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'record', ['round', 'board', 'gameId', 'outcome', 'gamePoints', 'reason', 'correction', 'commandId', 'record'], headerToken);
  const p = c.poisoned;
  const { running, finished } = kit.tournaments;
  const board = c.label === 'running' ? running.board : 1;
  const ownGame = c.label === 'running' ? running.gameId : c.label === 'finished' ? finished.gameId : null;
  const backgammonRecord = kit.records[0].text;
  const record = p.has('record')
    ? kit.pick([kit.badRecord().text, kit.records[1].text, kit.records[2].text])
    : !p.has('gamePoints') && kit.chance(0.33)
      ? backgammonRecord
      : kit.pick([undefined, null]);
  const imports = record === backgammonRecord;
  const played = ['WIN_SEAT0', 'WIN_SEAT1', 'DRAW'];
  const outcome = p.has('outcome')
    ? imports
      ? kit.pick(['DRAW', 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT'])
      : kit.pick([undefined, null, 'win', 'SEAT0', kit.string()])
    : imports
      ? kit.pick([undefined, null])
      : p.has('gamePoints')
        ? kit.pick(played)
        : kit.pick([...played, 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT']);
  const gamePoints = p.has('gamePoints')
    ? kit.pick<unknown>([[], ['1'], ['-1', '0'], ['x', '0'], [null, '0'], ['1', '-2'], ['one', 'two'], null])
    : kit.pick([
        ['1', '0'],
        ['0', '1'],
        ['2', '0'],
        ['1/2', '1/2'],
        ['0.5', '0'],
      ]);
  const otherGames = [finished.gameId, running.gameId, kit.games.duel.id, 'AAAAAAAAAAAA', kit.unlike(GAME_ID), running.id].filter((g) => g !== ownGame);
  const input = ownObject([
    ['round', p.has('round') ? kit.pick([0, -1, 2, 3, 64, 2147483647, -2147483648, 1.5, null]) : 1],
    ['board', p.has('board') ? kit.pick([0, -1, board + 1, 99, 2147483647, null]) : board],
    ['gameId', p.has('gameId') ? kit.pick(otherGames) : kit.pick([undefined, null, ownGame])],
    ['outcome', outcome],
    ['gamePoints', gamePoints],
    ['present', kit.pick([undefined, null, [true, false], [true], []])],
    ['record', record],
    ['reason', p.has('reason') ? badReason(kit) : kit.pick([undefined, null, 'over the board'])],
    ['correction', p.has('correction') ? true : kit.pick([undefined, null, false])],
  ]);
  return {
    op: 'mutation',
    name: 'recordResult',
    text: `recordResult(tournamentId: $t${sfx}, input: $i${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
    defs: [`$t${sfx}: ID!`, `$i${sfx}: ResultInput!`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`i${sfx}`]: input, [`c${sfx}`]: commandId(kit, p) },
    token: commandToken(kit, 'record', c.label, p, headerToken),
    changes: true,
  };
}

function finishField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const c = tournamentCommand(kit, 'finish', ['commandId'], headerToken);
  return {
    op: 'mutation',
    name: 'finishTournament',
    text: `finishTournament(tournamentId: $t${sfx}, commandId: $c${sfx}) ${TOURNAMENT_SEL}`,
    defs: [`$t${sfx}: ID!`, `$c${sfx}: String`],
    vars: { [`t${sfx}`]: c.id, [`c${sfx}`]: commandId(kit, c.poisoned) },
    token: commandToken(kit, 'finish', c.label, c.poisoned, headerToken),
    changes: true,
  };
}
