/**
 * What every hostile tournament command shares: which tournament it names and which of its
 * arguments are poisoned, the token it is sent with, and the poisons of its arguments (a
 * participant, a reason, round settings) that the tournament must refuse.
 */
import type { SeededParticipant, SeededTournament, TournamentTargets } from '../hostile-targets.js';
import type { HostileKit } from './kit.js';
import { CLIENT_ID, NOT_IDS, PROTO_KEYS, REFUSED_CHARS, TOURNAMENT_ID } from './poisons.js';
import { type HeaderToken, ownObject } from './request.js';

type TournamentLabel = keyof TournamentTargets;
type TournamentCommand = 'register' | 'withdraw' | 'settings' | 'pair' | 'record' | 'finish';

/**
 * The tournaments (TournamentTargets) on which a command is accepted when nothing else is wrong;
 * on the others their state refuses it: nothing is paired in the registering one (no result, no
 * finish), round 1 of the running one waits for its result (no pairing, no finish), and the
 * finished one takes no command.
 */
const ACCEPTED_ON: Readonly<Record<TournamentCommand, readonly TournamentLabel[]>> = {
  register: ['registering', 'running'],
  withdraw: ['registering', 'running'],
  settings: ['registering', 'running'],
  pair: ['registering'],
  record: ['running'],
  finish: [],
};

/** A tournament id: a real one, one that names no tournament, or a malformed one. */
export function anyTournamentId(kit: HostileKit): unknown {
  switch (kit.int(4)) {
    case 0:
      return kit.pick(kit.tournamentList()).id;
    case 1:
      return kit.pick(['t-AAAAAAAAAAAA', 't-', `t-${'a'.repeat(65)}`, 'AAAAAAAAAAAA', kit.game().id, `${kit.tournaments.running.id}x`, `${kit.tournaments.running.id}\u0000`, 't-\ud800']);
    case 2:
      return kit.pick(NOT_IDS);
    default:
      return kit.string();
  }
}

/** Tokens that hold no role in `t`: garbage, seats of games outside tournaments, other tournaments' organizers and participants. */
function strangerTokens(kit: HostileKit, t: SeededTournament): string[] {
  const plain = kit.all.filter((g) => g !== kit.games.paired);
  const others = kit.tournamentList().filter((o) => o !== t);
  return ['arb_not-a-token', 'arbo_not-a-token', 'arbp_not-a-token', 'x'.repeat(300), kit.pick(kit.pick(plain).tokens), ...others.flatMap((o) => [o.organizerToken, kit.pick(o.participants).token])];
}

/**
 * The tournament of a command and which of its slots to poison: at least one of the tournament
 * (a malformed or unknown id, or a tournament whose state refuses the command), the token (not
 * with `headerToken` fixed: it is never the only poison) or one of the command's `slots`.
 */
export function tournamentCommand(kit: HostileKit, command: TournamentCommand, slots: string[], headerToken: HeaderToken) {
  const choices = ['tournament', ...(headerToken === null ? ['token'] : []), ...slots];
  const poisoned = kit.poisonSome(choices, 0.15);
  const labels = Object.keys(kit.tournaments) as TournamentLabel[];
  const open = ACCEPTED_ON[command];
  let label: TournamentLabel | null = kit.pick(open.length > 0 ? open : labels);
  let id: unknown = kit.tournaments[label].id;
  if (poisoned.has('tournament')) {
    const refusing = labels.filter((l) => !open.includes(l));
    if (kit.chance(0.5)) {
      label = kit.pick(refusing);
      id = kit.tournaments[label].id;
    } else {
      label = null;
      id = kit.pick(['t-AAAAAAAAAAAA', 'AAAAAAAAAAAA', kit.game().id, kit.unlike(TOURNAMENT_ID), `t-${'a'.repeat(65)}`, `${kit.tournaments.running.id}\u0000`]);
    }
  }
  return { poisoned, label, target: label ? kit.tournaments[label] : null, id };
}

/**
 * The token of a command on the tournament `label`: the header's when fixed; poisoned, one the
 * command is refused with there; else one it is accepted with (the organizer's, and where
 * registration is open or participants withdraw themselves, theirs or none).
 */
export function commandToken(kit: HostileKit, command: TournamentCommand, label: TournamentLabel | null, poisoned: Set<string>, headerToken: HeaderToken, participantId?: unknown): string | undefined {
  if (headerToken !== null) return headerToken;
  if (!label) return kit.pick([undefined, ...kit.tournamentTokens(), kit.pick(kit.game().tokens)]);
  const t = kit.tournaments[label];
  const selfWithdrawing = (p: SeededParticipant) => command === 'withdraw' && label === 'registering' && p.id === participantId;
  if (!poisoned.has('token')) {
    if (command === 'register' && label === 'registering') return kit.pick([undefined, t.organizerToken, kit.pick(t.participants).token]);
    const self = t.participants.find(selfWithdrawing);
    return self && kit.chance(0.5) ? self.token : t.organizerToken;
  }
  if (!ACCEPTED_ON[command].includes(label)) return kit.pick([undefined, t.organizerToken, ...t.participants.map((p) => p.token), ...strangerTokens(kit, t)]);
  if (command === 'register' && label === 'registering') return kit.pick(strangerTokens(kit, t));
  return kit.pick([undefined, ...t.participants.filter((p) => !selfWithdrawing(p)).map((p) => p.token), ...strangerTokens(kit, t)]);
}

/** A command id: none, a new one, or (poisoned) one outside its pattern. */
export function commandId(kit: HostileKit, poisoned: Set<string>): unknown {
  return poisoned.has('commandId') ? kit.unlike(CLIENT_ID) : kit.pick([undefined, null, kit.clientId()]);
}

/**
 * A participant id `label`'s tournament refuses: another tournament's, unknown or malformed; and
 * with `withdrawn`, the running tournament's withdrawn participant (refused by a withdrawal, not
 * by round settings: it is still one of the tournament's participants).
 */
export function strangerParticipant(kit: HostileKit, label: TournamentLabel | null, withdrawn: boolean): unknown {
  const others = kit.tournamentList().filter((t) => t !== (label ? kit.tournaments[label] : null));
  return kit.pick([
    kit.pick(kit.pick(others).participants).id,
    ...(withdrawn && label === 'running' ? [kit.tournaments.running.withdrawn] : []),
    'p-AAAAAAAAAAAA',
    kit.tournaments.running.id,
    kit.pick(kit.tournamentTokens()),
    kit.string(),
  ]);
}

/** A reason every command refuses: a refused character, or longer than 500. */
export function badReason(kit: HostileKit): string {
  return kit.chance(0.8) ? kit.insert(kit.pick(['forfeit', '', 'did not show up']), kit.pick(REFUSED_CHARS)) : 'r'.repeat(501 + kit.int(2000));
}

/** Settings for the next round of `label`'s tournament (the running one's participants when there is none). */
export function roundSettings(kit: HostileKit, label: TournamentLabel | null, poison: boolean): unknown {
  const pool = kit.tournaments[label ?? 'running'].participants.filter((p) => p.id !== kit.tournaments.running.withdrawn).map((p) => p.id);
  const [a, b] = [pool[0], pool[1]];
  const next = label === 'running' ? 2 : 1;
  if (!poison) {
    return kit.pick<Record<string, unknown>>([
      {},
      { round: next },
      { absent: [a] },
      { requestedByes: [b] },
      { forbiddenPairs: [[a, b]] },
      { manualPairings: [{ a, b }] },
      { manualPairings: [{ a, b, seats: [b, a] }] },
      { manualBye: a },
    ]);
  }
  const stranger = strangerParticipant(kit, label, false);
  switch (kit.int(9)) {
    case 0:
      return { round: kit.pick([0, -1, next - 1, next + 1, 64, 2147483647, -2147483648, 1.5]) };
    case 1:
      return kit.pick<Record<string, unknown>>([
        { absent: [stranger] },
        { requestedByes: [a, stranger] },
        { forbiddenPairs: [[a, stranger]] },
        { manualPairings: [{ a: stranger, b }] },
        { manualBye: stranger },
        { manualPairings: [{ a, b, seats: [a, stranger] }] },
      ]);
    case 2:
      // Seeds name every participant (knockout with manual seeding); a stranger among them is refused as in any other list.
      return { seeds: [a, stranger] };
    case 3:
      return kit.pick<Record<string, unknown>>([{ absent: [a], requestedByes: [a] }, { manualPairings: [{ a, b }], absent: [b] }, { manualBye: a, absent: [a] }, { absent: [a, a] }]);
    case 4:
      return kit.pick<Record<string, unknown>>([{ manualPairings: [{ a, b: a }] }, { forbiddenPairs: [[a, a]] }, { forbiddenPairs: [[a]] }, { forbiddenPairs: [[a, b, a]] }]);
    case 5:
      return kit.pick<Record<string, unknown>>([{ manualPairings: [{ a, b, seats: [a] }] }, { manualPairings: [{ a, b, seats: [a, a] }] }, { manualPairings: [{ a, b, seats: [a, b, a] }] }]);
    case 6:
      // Tables are for the tables format: these are Swiss tournaments.
      return { manualTables: [pool.slice(0, 2)] };
    case 7:
      return kit.pick<unknown>([{ absent: [null] }, { absent: 'x' }, { manualPairings: [{ a }] }, ownObject([[kit.pick(PROTO_KEYS), 1]]), null]);
    default:
      return ownObject([
        ['absent', [a]],
        [kit.pick(['bogus', ...PROTO_KEYS]), [b]],
      ]);
  }
}
