/**
 * A tournament as its page reads it from the public API: one query, and what the signed-in viewer
 * (a player key, or a participant token in the URL fragment) makes of it: which participant is
 * theirs and which game they play next. `game { mySeat status }` answers for the caller's token.
 */
export const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { id name kind format status config seedCommitment seed totalRounds completedRounds
  participants { id registrationNo name rating entryRound withdrawnAfterRound }
  rounds { round complete byes { name } rest { name } warnings
    boards { board complete winner { id name } walkover { id name } seats { id name }
      games { gameId seats { id } game { mySeat status } result { source kinds gamePoints ranking reason } } } }
  standings { rank participantId registrationNo name tp tieBreaks { name value } }
  crosstable { participantId registrationNo name cells { round kind seat result tp opponents { registrationNo } } } } }`;

export interface Ref {
  id?: string;
  name: string;
}
export interface GameResult {
  source: string;
  kinds: string[];
  gamePoints: (string | null)[];
  ranking: number[][];
  reason: string | null;
}
export interface BoardGame {
  gameId: string;
  seats: { id: string }[];
  game: { mySeat: number | null; status: string };
  result: GameResult | null;
}
export interface Board {
  board: number;
  complete: boolean;
  winner: Ref | null;
  walkover: Ref | null;
  seats: Ref[];
  games: BoardGame[];
}
export interface Round {
  round: number;
  complete: boolean;
  byes: Ref[];
  rest: Ref | null;
  warnings: string[];
  boards: Board[];
}
export interface Tournament {
  id: string;
  name: string;
  kind: string;
  format: string;
  status: string;
  config: { groupCount?: number; groupSize?: number; advancePerGroup?: number; thirdPlaceMatch?: boolean };
  seedCommitment: string;
  seed: string | null;
  totalRounds: number | null;
  completedRounds: number;
  participants: { id: string; registrationNo: number; name: string; rating: number; entryRound: number; withdrawnAfterRound: number | null }[];
  rounds: Round[];
  standings: { rank: number; participantId: string; registrationNo: number; name: string; tp: string | null; tieBreaks: { name: string; value: string | null }[] }[];
  crosstable: {
    participantId: string;
    registrationNo: number;
    name: string;
    cells: { round: number; kind: string; seat: number | null; result: string | null; tp: string; opponents: { registrationNo: number }[] }[];
  }[];
}

/** The participants the viewer's token plays for: those seated where a game answers `mySeat`. */
export function myParticipants(t: Tournament): Set<string> {
  const mine = new Set<string>();
  for (const r of t.rounds) for (const b of r.boards) for (const g of b.games) if (g.game.mySeat !== null) mine.add(g.seats[g.game.mySeat].id);
  return mine;
}

/** Where the viewer plays next: the earliest board with a game of theirs not yet over. */
export interface NextGame {
  round: number;
  board: Board;
  gameId: string;
}

export function myNextGame(t: Tournament): NextGame | null {
  for (const r of t.rounds)
    for (const board of r.boards) {
      const game = board.games.find((g) => g.game.mySeat !== null && (g.game.status === 'ACTIVE' || g.game.status === 'WAITING'));
      if (game) return { round: r.round, board, gameId: game.gameId };
    }
  return null;
}
