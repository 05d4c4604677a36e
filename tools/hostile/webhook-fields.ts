/**
 * Hostile GraphQL fields over webhooks: registrations with a URL, events, thresholds or scope the
 * service refuses, new secrets, deletions and resumptions of a webhook the token does not manage
 * (or of none), and reads.
 */
import type { HostileKit } from './kit.js';
import { GAME_ID, ODD_NUMBERS, PROTO_KEYS, TOURNAMENT_ID, WEBHOOK_ID } from './poisons.js';
import { type Field, type HeaderToken, ownObject } from './request.js';

const WEBHOOK_EVENTS = ['YOUR_TURN', 'GAME_OVER', 'TIME_RUNNING_LOW', 'TIMED_OUT', 'GAME_STARTED', 'PAUSE_REQUESTED', 'TIME_GIVEN', 'OPPONENT_ON_VACATION'];

/** The token a registration is sent with, and the game or tournament it is for. */
type Scope = { token: string | undefined; gameId?: unknown; tournamentId?: unknown };

/** A webhook's field: a registration, a new secret, a deletion or a resumption, each poisoned, or a read. */
export function webhookField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const n = kit.int(100);
  if (n < 40) return registerWebhookField(kit, headerToken, sfx);
  if (n < 52) return manageWebhookField(kit, 'rotateWebhookSecret', headerToken, sfx);
  if (n < 64) return manageWebhookField(kit, 'deleteWebhook', headerToken, sfx);
  if (n < 72) return manageWebhookField(kit, 'resumeWebhook', headerToken, sfx);
  const hook = kit.pick(kit.webhooks);
  if (n < 80)
    return {
      op: 'query',
      name: 'webhook',
      text: `webhook(id: $w${sfx}) { id suspendedAt timeouts }`,
      defs: [`$w${sfx}: ID!`],
      vars: { [`w${sfx}`]: kit.pick([hook.id, unknownWebhookId(kit)]) },
      token: kit.pick([hook.ownerToken, kit.readToken()]),
    };
  return {
    op: 'query',
    name: 'webhookDeliveries',
    text: `webhookDeliveries(id: $w${sfx}, first: $f${sfx}, after: $a${sfx}) { nodes { messageId attempts } pageInfo { endCursor hasNextPage } }`,
    defs: [`$w${sfx}: ID!`, `$f${sfx}: Int`, `$a${sfx}: String`],
    vars: {
      [`w${sfx}`]: kit.pick([hook.id, unknownWebhookId(kit)]),
      [`f${sfx}`]: kit.pick([undefined, 20, ...ODD_NUMBERS]),
      [`a${sfx}`]: kit.pick([undefined, null, '0', '123', '-1', '9'.repeat(19), kit.string()]),
    },
    token: kit.pick([hook.ownerToken, kit.readToken()]),
  };
}

/** A webhook id that names none of the registrations. */
function unknownWebhookId(kit: HostileKit): unknown {
  return kit.pick(['wh_AAAAAAAAAAAAAAAA', 'wh_', `wh_${'A'.repeat(17)}`, kit.unlike(WEBHOOK_ID), `${kit.webhooks[0].id}\u0000`, 0, null]);
}

/** A URL the service refuses: a host (or port) not allowed, a private or metadata address, another scheme, credentials, too long, not a URL. */
function badWebhookUrl(kit: HostileKit): string {
  const { host, port } = new URL(kit.webhookUrl);
  return kit.pick([
    'http://example.com/hooks',
    'https://hooks.example.net/',
    `http://127.0.0.1:${Number(port) === 65535 ? 65534 : Number(port) + 1}/hooks`,
    'http://127.0.0.1/hooks',
    `http://localhost:${port}/hooks`,
    `http://[::1]:${port}/hooks`,
    `http://0.0.0.0:${port}/hooks`,
    'http://10.0.0.1/hooks',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    `http://user:secret@${host}/hooks`,
    `http://user@${host}/hooks`,
    `ftp://${host}/hooks`,
    `file:///etc/passwd`,
    'javascript:alert(1)',
    `data:text/plain,${host}`,
    `ws://${host}/hooks`,
    `${kit.webhookUrl}/${'a'.repeat(2100)}`,
    '/hooks',
    '',
    kit.string(),
  ]);
}

/** The token and scope of a registration: one the token holds, or (poisoned) one it does not. */
function webhookScope(kit: HostileKit, poison: boolean, headerToken: HeaderToken): Scope {
  const plain = kit.all.filter((g) => g !== kit.games.paired);
  const { running } = kit.tournaments;
  const fixed = headerToken !== null;
  const token = (t: string | undefined) => (fixed ? headerToken : t);
  if (!poison) {
    const t = kit.pick(kit.tournamentList());
    const g = kit.pick(plain);
    return kit.pick<Scope>([
      { token: token(kit.pick(g.tokens)) },
      { token: token(kit.pick(g.tokens)), gameId: g.id },
      { token: token(kit.pick(t.participants).token) },
      { token: token(kit.pick(t.participants).token), tournamentId: t.id },
      { token: token(t.organizerToken) },
      { token: token(t.organizerToken), tournamentId: t.id },
      { token: token(running.organizerToken), gameId: running.gameId },
    ]);
  }
  // Refused whatever the token: both scopes, a tournament no token holds, a game that is none.
  const anyToken = kit.pick([kit.pick(kit.game().tokens), kit.pick(kit.tournamentTokens())]);
  const always = [
    { token: token(anyToken), gameId: kit.game().id, tournamentId: kit.pick(kit.tournamentList()).id },
    { token: token(anyToken), tournamentId: kit.pick(['t-AAAAAAAAAAAA', kit.unlike(TOURNAMENT_ID)]) },
    { token: token(anyToken), gameId: kit.pick(['AAAAAAAAAAAA', `${kit.game().id}\u0000`, kit.unlike(GAME_ID)]) },
  ];
  if (fixed) return kit.pick(always);
  const g = kit.pick(plain);
  const otherGame = kit.pick([...plain.filter((x) => x !== g), kit.games.paired]);
  const t = kit.pick(kit.tournamentList());
  const otherTournament = kit.pick(kit.tournamentList().filter((x) => x !== t));
  const tournamentToken = kit.pick([t.organizerToken, kit.pick(t.participants).token]);
  return kit.pick<Scope>([
    ...always,
    { token: undefined, ...kit.pick([{}, { gameId: g.id }, { tournamentId: t.id }]) },
    { token: kit.pick(['arb_not-a-token', 'arbo_not-a-token', 'x'.repeat(300)]), ...kit.pick([{}, { gameId: g.id }, { tournamentId: t.id }]) },
    { token: kit.pick(g.tokens), gameId: otherGame.id },
    { token: kit.pick(g.tokens), tournamentId: t.id },
    { token: tournamentToken, tournamentId: otherTournament.id },
    { token: kit.pick(t.participants).token, gameId: kit.pick([g.id, kit.games.paired.id]) },
    { token: (t === running ? otherTournament : t).organizerToken, gameId: kit.pick([g.id, kit.games.paired.id]) },
  ]);
}

function registerWebhookField(kit: HostileKit, headerToken: HeaderToken, sfx: string): Field {
  const slots = ['url', 'events', 'thresholds', 'scope'];
  const poisoned = kit.poisonSome(slots, 0.15);
  const events = poisoned.has('events')
    ? kit.pick<unknown>([[], ['your_turn'], ['NOPE'], [kit.string()], ['YOUR_TURN', kit.pick(PROTO_KEYS)], null, [null]])
    : WEBHOOK_EVENTS.filter(() => kit.chance(0.5)).concat(kit.chance(0.5) ? ['TIME_RUNNING_LOW'] : ['GAME_OVER']);
  const lowTime = Array.isArray(events) && events.includes('TIME_RUNNING_LOW');
  const thresholds = poisoned.has('thresholds')
    ? lowTime
      ? kit.pick<unknown>([[0], [-1], [2_592_001], [1, 2, 3, 4, 5, 6], [2147483647], [60, -60], [1.5], ['60']])
      : kit.pick([[60], [300, 60]])
    : lowTime
      ? kit.pick([undefined, null, [], [60], [300, 60, 10], [1, 2_592_000]])
      : kit.pick([undefined, null, []]);
  const scope = webhookScope(kit, poisoned.has('scope'), headerToken);
  const input = ownObject([
    ['url', poisoned.has('url') ? badWebhookUrl(kit) : kit.pick([kit.webhookUrl, `${kit.webhookUrl}?fuzz=1`, `${kit.webhookUrl}/deeper`])],
    ['events', events],
    ['lowTimeThresholdsSeconds', thresholds],
    ...(scope.gameId !== undefined ? ([['gameId', scope.gameId]] as [string, unknown][]) : []),
    ...(scope.tournamentId !== undefined ? ([['tournamentId', scope.tournamentId]] as [string, unknown][]) : []),
  ]);
  return {
    op: 'mutation',
    name: 'registerWebhook',
    text: `registerWebhook(input: $i${sfx}) { __typename ... on Rejection { code message } ... on WebhookSecret { id secret webhook { id } } }`,
    defs: [`$i${sfx}: RegisterWebhookInput!`],
    vars: { [`i${sfx}`]: input },
    token: scope.token,
    changes: true,
  };
}

/** A new secret, a deletion or a resumption: an id that names no webhook, or a token that does not manage the one named. */
function manageWebhookField(kit: HostileKit, name: 'rotateWebhookSecret' | 'deleteWebhook' | 'resumeWebhook', headerToken: HeaderToken, sfx: string): Field {
  const hook = kit.pick(kit.webhooks);
  const other = kit.webhooks.find((w) => w !== hook)!;
  let id: unknown = hook.id;
  let token: string | undefined;
  if (headerToken !== null) {
    id = unknownWebhookId(kit);
    token = headerToken;
  } else {
    const poisoned = kit.poisonOneOrTwo(['id', 'token'], 0.2);
    token = hook.ownerToken;
    // The other registration's owner manages neither this one nor (by its own tournament) any other.
    if (poisoned.has('id')) id = kit.chance(0.3) ? other.id : unknownWebhookId(kit);
    if (poisoned.has('token') || id === other.id) {
      const refused = [undefined, 'arb_not-a-token', ...kit.all.flatMap((g) => g.tokens), ...kit.tournamentTokens()].filter((t) => t !== hook.ownerToken && t !== other.ownerToken);
      token = id === other.id ? kit.pick([hook.ownerToken, ...refused]) : kit.pick(refused);
    }
  }
  return {
    op: 'mutation',
    name,
    text: `${name}(id: $w${sfx}) { __typename ... on Rejection { code message } ${{ deleteWebhook: '... on WebhookDeleted { id }', resumeWebhook: '... on Webhook { id suspendedAt }', rotateWebhookSecret: '... on WebhookSecret { id secret }' }[name]} }`,
    defs: [`$w${sfx}: ID!`],
    vars: { [`w${sfx}`]: id },
    token,
    changes: true,
  };
}
