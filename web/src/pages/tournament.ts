import './tournament.css';
import { actingToken, gql, subscribe } from '../api.js';
import { html, type Markup } from '../html.js';
import { layout, type Stop } from '../layout.js';
import type { LogStatus } from '../verify/log.js';
import type { verifyTournament } from '../verify/tournament.js';
import { followLog, logView } from './log-status.js';
import { brackets } from './tournament-bracket.js';
import { decimal, legend, tablePlaces, tieBreakName } from './tournament-figures.js';
import { type Board, myNextGame, myParticipants, type NextGame, type Round, TOURNAMENT, type Tournament } from './tournament-model.js';

const LIST = `query { tournaments(first: 50) { nodes { id name kind format status createdAt } } }`;
const LIVE = `subscription($id: ID!, $after: Int) { tournamentEvents(tournamentId: $id, afterSeq: $after) { seq type } }`;

/** The tournaments list. */
export function tournamentsPage(app: HTMLElement): Stop {
  void gql<{ tournaments: { nodes: { id: string; name: string; kind: string; format: string; status: string }[] } }>(LIST).then(
    ({ tournaments: { nodes: tournaments } }) =>
      (app.innerHTML = layout(
        html`<h1>Tournaments</h1><ul class="games">${tournaments.map(
          (t) =>
            html`<li><a href="/tournaments/${t.id}"><b>${t.name || t.id}</b> <span class="kind">${t.kind}</span> ${t.format} <span class="status status-${t.status.toLowerCase()}">${t.status}</span></a></li>`,
        )}</ul>${tournaments.length ? '' : html`<p class="muted">No tournament yet.</p>`}`,
      ).text),
  );
  return () => {};
}

/** One tournament: rounds and boards, standings, crosstable, the knockout bracket; live while open. */
export function tournamentPage(app: HTMLElement, id: string): Stop {
  let stopLive: Stop = () => {};
  let stopped = false;
  let shown: Tournament | null = null;
  let verdict: Verdict | 'checking' = 'checking';
  /** A finished tournament's place in the transparency log, from the bundle the verifier read. */
  let logged: LogStatus | 'checking' | null = null;
  let stopLog: Stop = () => {};
  const draw = () => {
    if (!stopped && shown) app.innerHTML = layout(view(shown, verdict, logged)).text;
  };
  const verify = () => {
    const kind = shown?.kind;
    if (!kind) return;
    stopLog();
    verdict = 'checking';
    logged = shown?.status === 'FINISHED' ? 'checking' : null;
    draw();
    // Verified again while the tournament waits for the log's next checkpoint (followLog), with the bundle read again.
    stopLog = followLog(
      async () => {
        // The verifier and the engines are a chunk of their own (scripts/build-pages.mjs): only this page loads them.
        const { verifyTournament } = await import('../verify/tournament.js');
        const checked = await verifyTournament(id, kind);
        verdict = checked.verdict;
        return checked.log;
      },
      (log) => {
        logged = log;
        draw();
      },
    );
  };
  const load = async () => {
    try {
      // With the viewer's key (or a participant's token), each game answers `mySeat`: the page finds their next game.
      const token = actingToken();
      shown = (await gql<{ tournament: Tournament }>(TOURNAMENT, { id }, token).catch(() => (token ? gql<{ tournament: Tournament }>(TOURNAMENT, { id }) : Promise.reject(new Error('no tournament')))))
        .tournament;
      draw();
    } catch (err) {
      app.innerHTML = layout(html`<p class="error" role="alert">${(err as Error).message}</p>`).text;
    }
  };
  const onClick = (e: Event) => {
    if ((e.target as Element).closest('[data-verify]')) verify();
  };
  app.addEventListener('click', onClick);
  void load().then(() => {
    if (stopped || !shown) return;
    verify();
    stopLive = subscribe(LIVE, { id, after: 0 }, null, () => void load());
  });
  return () => {
    stopped = true;
    app.removeEventListener('click', onClick);
    stopLive();
    stopLog();
  };
}

/** The bracket formats (knockout, double elimination, groups then knockout) rank by placings (no points, no crosstable). */
const byPlacings = (t: Tournament): boolean => t.format === 'KNOCKOUT' || t.format === 'DOUBLE_ELIMINATION' || t.format === 'GROUPS_KNOCKOUT';

type Verdict = Awaited<ReturnType<typeof verifyTournament>>['verdict'];

/** V10.3's verdict as a badge: what was checked, or the first bad event and the rule it breaks. */
function badge(verdict: Verdict | 'checking'): Markup {
  if (verdict === 'checking') return html`<p class="badge" data-verdict="checking" role="status">Verifying the bundle in your browser…</p>`;
  const again = html`<button type="button" data-verify>Verify again</button>`;
  return verdict.ok
    ? html`<p class="badge badge-ok" data-verdict="ok" role="status">✔ verified</p><p class="muted small">${verdict.summary}</p>${again}`
    : html`<p class="badge badge-bad" data-verdict="bad" role="status">✘ not verified</p><p class="small" data-problem>${verdict.badSeq ? `Tournament event ${verdict.badSeq}: ` : ''}${verdict.problem ?? ''}</p>${again}`;
}

function view(t: Tournament, verdict: Verdict | 'checking', logged: LogStatus | 'checking' | null): Markup {
  const placed = byPlacings(t);
  const mine = myParticipants(t);
  const next = myNextGame(t);
  return html`<h1>${t.name || t.id}</h1>
    <p class="meta"><span class="kind">${t.kind}</span> · ${t.format.toLowerCase().replace(/_/g, ' ')} · <span class="status status-${t.status.toLowerCase()}">${t.status}</span>
      · round ${t.rounds.length}${t.totalRounds ? ` of ${t.totalRounds}` : ''} · ${t.participants.length} participants</p>
    ${next ? nextGame(next, mine) : ''}
    <section aria-label="Standings"><h2>${placed ? 'Placings' : t.status === 'FINISHED' ? 'Final standings' : `Standings after round ${t.completedRounds}`}</h2>${standings(t)}</section>
    ${brackets(t, mine)}
    <section aria-label="Rounds"><h2>Rounds</h2>${[...t.rounds].reverse().map((r) => round(r, t.format === 'TABLES', next))}</section>
    ${placed ? '' : html`<section aria-label="Crosstable"><h2>Crosstable</h2>${crosstable(t)}</section>`}
    <section class="verification" aria-label="Verification"><h2>Verification</h2>
      ${badge(verdict)}
      ${logged ? html`<h3>Public log</h3>${logView(logged, 'tournament')}` : ''}
      <p class="small">Seed commitment <code class="hash">${t.seedCommitment}</code></p>
      ${t.seed ? html`<p class="small">Seed (revealed) <code class="hash">${t.seed}</code></p>` : html`<p class="small muted">The seed is revealed when the tournament ends.</p>`}
      <p><a href="/api/tournaments/${t.id}/bundle" download>Download the bundle</a> (or check it offline with <code>npm run verify -- bundle.json</code>) ·
      <a href="/api/tournaments/${t.id}/standings?format=csv" download>standings as CSV</a></p></section>`;
}

function standings(t: Tournament): Markup {
  const names = t.standings[0]?.tieBreaks.map((b) => b.name) ?? [];
  const points = !byPlacings(t);
  const withdrawn = new Map(t.participants.map((p) => [p.id, p.withdrawnAfterRound]));
  const who = (r: Tournament['standings'][number]) => {
    const after = withdrawn.get(r.participantId);
    return after === null || after === undefined ? html`${r.name}` : html`${r.name} <span class="withdrawn">withdrew after round ${after}</span>`;
  };
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Standings table"><table class="standings"><thead><tr><th scope="col">#</th><th scope="col">Participant</th>${
    points ? html`<th scope="col">${tieBreakName('TP')}</th>` : ''
  }${names.map((n) => html`<th scope="col">${tieBreakName(n)}</th>`)}</tr></thead>
    <tbody>${t.standings.map(
      (r) => html`<tr><td>${r.rank}</td><td>${who(r)}</td>${points ? html`<td>${decimal(r.tp)}</td>` : ''}${r.tieBreaks.map((b) => html`<td>${decimal(b.value)}</td>`)}</tr>`,
    )}</tbody></table></div>${legend(points ? ['TP', ...names] : names)}`;
}

function result(board: Board): string {
  if (board.walkover) return `walkover (${board.walkover.name} withdrew)`;
  if (board.seats.length === 1) return 'bye';
  const last = board.games.at(-1)?.result;
  if (!last) return 'playing';
  if (last.kinds.includes('DOUBLE_FORFEIT')) return 'double forfeit';
  if (last.kinds.some((k) => k.startsWith('FORFEIT'))) return `forfeit: ${board.seats[last.kinds.indexOf('FORFEIT_WIN')]?.name ?? 'nobody'} wins`;
  if (board.seats.length === 2) return last.ranking.length === 1 ? `draw ${last.gamePoints.join('–')}` : `${board.seats[last.ranking[0][0]].name} wins ${last.gamePoints.join('–')}`;
  // TA7.6-TA7.7: a table's places, with each seat's pips; no colours.
  const places = tablePlaces(last.ranking);
  return last.ranking.flatMap((group) => group.map((s) => `${places.get(s)} ${board.seats[s].name} (${last.gamePoints[s]} pips)`)).join(', ');
}

/** The viewer's next game, above everything else, with a link to play it. */
function nextGame(next: NextGame, mine: ReadonlySet<string>): Markup {
  const others = next.board.seats.filter((s) => !(s.id && mine.has(s.id))).map((s) => s.name);
  return html`<section class="next-game" aria-label="Your next game"><h2>Your next game</h2>
    <p>Round ${next.round}, ${next.board.seats.length > 2 ? 'table' : 'board'} ${next.board.board}: against ${others.join(', ')} · <a class="play" href="/games/${next.gameId}">Play it</a></p></section>`;
}

function round(r: Round, tables: boolean, next: NextGame | null): Markup {
  const where = tables ? 'Table' : 'Board';
  return html`<details ${r.complete && next?.round !== r.round ? '' : html`open`}><summary>Round ${r.round} ${r.complete ? '' : html`<span class="status status-active">playing</span>`}</summary>
    <ol class="boards" aria-label="${where}s of round ${r.round}">${r.boards.map(
      (
        b,
      ) => html`<li value="${b.board}" ${next?.board === b ? html`class="mine" aria-current="true"` : ''}>${next?.board === b ? html`<strong>Your next game:</strong> ` : ''}<span class="players">${b.seats.map((s) => s.name).join(' – ') || 'empty'}</span>: ${result(b)}
        ${b.games.map((g, i) => html` <a href="/games/${g.gameId}">game${b.games.length > 1 ? ` ${i + 1}` : ''}</a>`)}</li>`,
    )}</ol>
    ${r.byes.length ? html`<p>Bye: ${r.byes.map((b) => b.name).join(', ')}</p>` : ''}${r.rest ? html`<p>Rest: ${r.rest.name}</p>` : ''}
    ${r.warnings.map((w) => html`<p class="muted small">${w}</p>`)}</details>`;
}

/** R3.1's unplayed rounds, as a player says them. */
const UNPLAYED: Record<string, string> = {
  PAB: 'bye',
  REQUESTED_BYE: 'bye (asked)',
  FORFEIT_WIN: 'won by forfeit',
  FORFEIT_LOSS: 'lost by forfeit',
  DOUBLE_FORFEIT: 'double forfeit',
  ABSENT: 'absent',
  REST: 'rest',
};

function crosstable(t: Tournament): Markup {
  const tables = t.format === 'TABLES';
  const rounds = t.crosstable[0]?.cells.length ?? 0;
  const cell = (row: Tournament['crosstable'][number], c: Tournament['crosstable'][number]['cells'][number]) => {
    const opp = c.opponents.map((o) => o.registrationNo).join(',');
    const mark = c.result === 'WIN' ? '+' : c.result === 'DRAW' ? '=' : c.result === 'LOSS' ? '−' : '';
    // Seat 0 and 1 are chess's white and black; at a table the seat says nothing: its points do.
    if (c.kind !== 'PLAYED') return `${UNPLAYED[c.kind] ?? c.kind.toLowerCase().replace(/_/g, ' ')} ${decimal(c.tp)}`;
    return tables ? `${tablePlace(t, c.round, row.participantId)} · ${decimal(c.tp)} pts v ${opp}` : `${mark}${opp}${c.seat === null ? '' : c.seat === 0 ? 'w' : 'b'}`;
  };
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Crosstable table"><table class="crosstable"><thead><tr><th scope="col">No</th><th scope="col">Participant</th>${Array.from(
    { length: rounds },
    (_, i) => html`<th scope="col">R${i + 1}</th>`,
  )}</tr></thead><tbody>${t.crosstable.map((row) => html`<tr><td>${row.registrationNo}</td><td>${row.name}</td>${row.cells.map((c) => html`<td>${cell(row, c)}</td>`)}</tr>`)}</tbody></table></div>`;
}

/** TA7.6: the place a participant took at its table in round `round` ('?' while the game is played). */
function tablePlace(t: Tournament, round: number, participantId: string): string {
  for (const board of t.rounds[round - 1]?.boards ?? []) {
    const seat = board.seats.findIndex((s) => s.id === participantId);
    const result = board.games.at(-1)?.result;
    if (seat >= 0) return (result && tablePlaces(result.ranking).get(seat)) || '?';
  }
  return '?';
}
