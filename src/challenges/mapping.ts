import { pageOf } from '../api/connection.js';
import { toTimeControl } from '../api/mapping.js';
import type { ChallengePage, ChallengeService, LiveChallenge, RefereeService } from '../referee/index.js';
import { type Challenge, type ChallengeConnection, type ChallengePlayer, type ChallengeSeat, ChallengeStatusEnum } from './models.js';

/** A challenge as GraphQL answers it: its status as of now, its players named. */
export async function toChallenge(challenges: ChallengeService, referee: RefereeService, c: LiveChallenge): Promise<Challenge> {
  const named = async (id: string | null): Promise<ChallengePlayer | null> => (id === null ? null : { id, name: (await referee.playerCard(id))?.name ?? null });
  const [challenger, challenged, acceptedBy] = await Promise.all([named(c.challengerId), named(c.challengedId), named(c.acceptedBy)]);
  return {
    id: c.challengeId,
    status: ChallengeStatusEnum[challenges.statusOf(c)],
    challenger: challenger as ChallengePlayer,
    challenged,
    kind: c.kind,
    ruleset: c.ruleset,
    timeControl: c.timeControl ? toTimeControl(c.timeControl) : null,
    rated: c.rated === true,
    seat: c.seat as ChallengeSeat,
    challengerMessage: c.message,
    createdAt: new Date(c.issuedAt),
    expiresAt: new Date(c.expiresAt),
    acceptedBy,
    gameId: c.gameId,
    challengerSeat: c.challengerSeat,
    reason: c.reason,
  };
}

export async function toChallengeConnection(challenges: ChallengeService, referee: RefereeService, page: ChallengePage): Promise<ChallengeConnection> {
  const nodes = await Promise.all(page.items.map(({ challenge }) => toChallenge(challenges, referee, challenge)));
  return pageOf(
    page.items.map(({ cursor }, i) => ({ cursor, node: nodes[i] })),
    { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
  );
}

/** The same challenge as REST answers it: the seat choice spelled as GraphQL's enum. */
export const challengeDocument = (c: Challenge) => ({ ...c, seat: c.seat.toUpperCase() });
