import { feedRowsOf, type TournamentNotice, tournamentNoticesOf } from '../../src/referee/application/tournament-notices.js';
import { Driver } from '../tournaments/support.js';

/**
 * What a tournament's events tell its organizer and participants (issue 27, item 10), as the
 * players' stream and the webhooks send it: derived from the tournament after a batch and the
 * batch's events, by the pure decider's streams (no database).
 */
const backgammon = { kind: 'backgammon', ruleset: { matchLength: 1 } };

/** The notices a command's batch makes. */
const told = (d: Driver, batch: ReturnType<Driver['run']>) => tournamentNoticesOf(d.t, batch);
const to = (notices: TournamentNotice[], participantId: string | null) => notices.filter((n) => n.participantId === participantId);

describe('tournamentNoticesOf', () => {
  it('tells a registration to the organizer and to the participant, and a player its notices on its stream', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 1, name: 'Open' });
    const notices = told(d, d.run({ type: 'RegisterParticipant', participantId: 'p-ada', name: 'Ada', rating: 1500, player: 'pl-ada' }));
    expect(notices.map((n) => [n.type, n.participantId, n.playerId])).toEqual([
      ['tournament.participant_registered', null, null],
      ['tournament.participant_registered', 'p-ada', 'pl-ada'],
    ]);
    expect(notices[0].data).toEqual({ tournamentId: 't-test', tournamentName: 'Open', participantId: 'p-ada', registrationNo: 1, name: 'Ada', rating: 1500, playerId: 'pl-ada', externalId: null });
    // One row of the stream, for the player; the same key however often the batch is derived.
    expect(feedRowsOf(notices)).toEqual([expect.objectContaining({ playerId: 'pl-ada', type: 'tournament.participant_registered', dedupeKey: notices[1].dedupeKey })]);
    expect(told(d, d.events.slice(-1)).map((n) => n.dedupeKey)).toEqual(notices.map((n) => n.dedupeKey));
  });

  it('tells each participant of a Swiss round its game, seat and opponent, and the bye its bye; the organizer the round; a withdrawn participant nothing', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 1 });
    for (const name of ['A', 'B', 'C', 'D']) d.register(name);
    d.run({ type: 'WithdrawParticipant', participantId: 'p-D', reason: null });
    const notices = told(d, d.pair());
    const round = d.t.rounds[0];
    const [board] = round.boards;
    expect(to(notices, null).map((n) => n.data)).toEqual([{ tournamentId: 't-test', tournamentName: expect.any(String), round: 1, boards: 1, games: 1, byes: round.byes }]);
    expect(to(notices, 'p-D')).toEqual([]);
    const [s0, s1] = board.games[0].seats;
    expect(to(notices, s1)[0].data).toMatchObject({
      round: 1,
      board: board.board,
      bye: false,
      walkover: false,
      gameId: board.games[0].gameId,
      seat: 1,
      opponent: { participantId: s0, name: s0.slice(2), playerId: null },
      games: [{ gameId: board.games[0].gameId, seat: 1 }],
    });
    expect(to(notices, round.byes[0])[0].data).toMatchObject({ board: null, bye: true, gameId: null, seat: null, opponent: null, opponents: [], games: [] });
    // Delivered in order: each notice's place in the batch.
    expect(notices.map((n) => n.n)).toEqual([0, 1, 2, 3]);
  });

  it('tells a knockout match of several games each of its games with the seat in it, and a knockout bye its bye', () => {
    const d = new Driver({ ...backgammon, format: 'knockout', gamesPerMatch: 3 });
    for (const name of ['A', 'B', 'C']) d.register(name, name === 'A' ? 2000 : 1000);
    const notices = told(d, d.pair());
    const match = d.t.rounds[0].boards.find((b) => b.seats.length === 2)!;
    const [first, second] = match.games[0].seats;
    expect(to(notices, first)[0].data).toMatchObject({
      bye: false,
      seat: 0,
      opponent: { participantId: second },
      games: match.games.map((g) => ({ gameId: g.gameId, seat: g.seats.indexOf(first) })),
    });
    expect((to(notices, first)[0].data.games as { seat: number }[]).map((g) => g.seat)).toEqual([0, 1, 0]);
    const bye = d.t.rounds[0].boards.find((b) => b.seats.length === 1)!;
    expect(to(notices, bye.seats[0])[0].data).toMatchObject({ board: bye.board, bye: true, gameId: null, opponent: null, games: [] });
  });

  it('tells a table its seats and every opponent, none of them the one opponent', () => {
    const d = new Driver({ kind: 'chicken-foot', ruleset: { players: 3 }, format: 'tables', rounds: 1 });
    for (const name of ['A', 'B', 'C']) d.register(name);
    const notices = told(d, d.pair());
    const [table] = d.t.rounds[0].boards;
    for (const [seat, id] of table.games[0].seats.entries()) {
      expect(to(notices, id)[0].data).toMatchObject({ seat, opponent: null, opponents: table.seats.filter((s) => s !== id).map((s) => expect.objectContaining({ participantId: s })) });
    }
  });

  it('tells the final standings: the organizer the ranking, each participant its rank', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 1 });
    for (const name of ['A', 'B']) d.register(name);
    d.pair();
    const [game] = d.openGames();
    const notices = told(d, d.finish(game, [1], [0, 1]));
    const winner = game.game.seats[1];
    expect(to(notices, null)[0]).toMatchObject({ type: 'tournament.finished', data: { ranking: [expect.objectContaining({ rank: 1, participantId: winner }), expect.objectContaining({ rank: 2 })] } });
    expect(to(notices, winner)[0].data).toMatchObject({ rank: 1, of: 2 });
  });
});
