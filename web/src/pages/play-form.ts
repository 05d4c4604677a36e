import { gql } from '../api.js';
import { html, type Markup } from '../html.js';

/**
 * The "new game" form of /play: a kind, its typed ruleset (a preset and the options players
 * change most), a clock, and whom to play: an open seat anyone joins, a challenge to a player,
 * or an open challenge. The ruleset is checked by the service's own `…RulesetCheck` queries
 * (the typed input resolved to the ruleset createGame stores), so the page never guesses a rule.
 */

/** Each kind's options, as its typed ruleset input names them. */
const RULES: Record<string, Markup> = {
  backgammon: html`<label>Match length (points) <input name="matchLength" type="number" min="1" max="25" value="1" /></label>
    <label class="check"><input name="cubeEnabled" type="checkbox" checked /> Doubling cube</label>
    <label class="check"><input name="crawford" type="checkbox" checked /> Crawford rule</label>`,
  'chicken-foot': html`<label>Preset <select name="preset"><option value="CLASSIC">Classic (double-9)</option><option value="MALTA_CROSS">Malta cross</option></select></label>
    <label>Players <input name="players" type="number" min="2" max="8" value="2" /></label>`,
  cerke: html`<label>Profile <select name="profile"><option value="ONLINE">Online</option><option value="STRICT">Strict</option></select></label>
    <label>Seasons <input name="seasons" type="number" min="1" max="4" value="4" /></label>`,
};

const CHECKS: Record<string, { query: string; input: (f: FormData) => unknown }> = {
  backgammon: {
    query: 'query($r: BackgammonRulesetInput) { check: backgammonRulesetCheck(ruleset: $r) { ok message ruleset } }',
    input: (f) => ({ matchLength: Number(f.get('matchLength')), cubeEnabled: f.has('cubeEnabled'), crawford: f.has('crawford') }),
  },
  'chicken-foot': {
    query: 'query($r: JSON!) { check: chickenFootRulesetCheck(ruleset: $r) { ok message ruleset } }',
    input: (f) => ({ preset: f.get('preset'), players: Number(f.get('players')) }),
  },
  cerke: {
    query: 'query($r: CerkeRulesetInput) { check: cerkeRulesetCheck(ruleset: $r) { ok message ruleset } }',
    input: (f) => ({ profile: f.get('profile'), seasons: Number(f.get('seasons')) }),
  },
};

/** The form; only the chosen kind's, clock's and opponent's fields show (see `showChosen`). */
export function newGameForm(kinds: string[]): Markup {
  const typed = kinds.filter((k) => RULES[k]);
  return html`<form class="new-game" data-new-game>
    <fieldset><legend>Game</legend>
      <label>Kind <select name="kind">${typed.map((k) => html`<option value="${k}">${k}</option>`)}</select></label>
      ${typed.map((k) => html`<div class="fields" data-when-kind="${k}">${RULES[k]}</div>`)}
    </fieldset>
    <fieldset><legend>Clock</legend>
      <label>Time control <select name="clock"><option value="CORRESPONDENCE">Correspondence (days a move)</option><option value="FISCHER">Fischer (one sitting)</option><option value="NONE">No clock</option></select></label>
      <div class="fields" data-when-clock="CORRESPONDENCE"><label>Days a move <input name="days" type="number" min="1" max="60" value="2" /></label>
        <label>Vacation days <input name="vacationDays" type="number" min="0" max="60" value="7" /></label></div>
      <div class="fields" data-when-clock="FISCHER"><label>Minutes <input name="minutes" type="number" min="1" max="600" value="10" /></label>
        <label>Increment (seconds) <input name="increment" type="number" min="0" max="600" value="5" /></label></div>
    </fieldset>
    <fieldset><legend>Opponent</legend>
      <label class="check"><input type="radio" name="opponent" value="seat" checked /> Leave a seat open: anyone may join</label>
      <label class="check"><input type="radio" name="opponent" value="challenge" /> Challenge a player</label>
      <label class="check"><input type="radio" name="opponent" value="open" /> Post an open challenge (two players)</label>
      <div class="fields" data-when-opponent="challenge"><label>Player id <input name="to" size="24" spellcheck="false" placeholder="p-…" /></label></div>
      <div class="fields" data-when-opponent="challenge open"><label>Your seat <select name="seat"><option value="RANDOM">drawn</option><option value="FIRST">first</option><option value="SECOND">second</option></select></label>
        <label>Message <input name="message" maxlength="500" size="30" /></label></div>
    </fieldset>
    <p><button type="submit">Create</button></p>
    <p class="error" role="alert" data-form-error></p>
  </form>`;
}

/** Shows the fields of the kind, clock and opponent chosen; hidden ones are disabled, so not sent nor checked. */
export function showChosen(form: HTMLFormElement): void {
  for (const [attr, name] of [
    ['whenKind', 'kind'],
    ['whenClock', 'clock'],
    ['whenOpponent', 'opponent'],
  ] as const) {
    const value = (form.elements.namedItem(name) as RadioNodeList | HTMLSelectElement).value;
    for (const el of form.querySelectorAll<HTMLElement>(`[data-when-${name}]`)) {
      const shown = (el.dataset[attr] ?? '').split(' ').includes(value);
      el.hidden = !shown;
      for (const input of el.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) input.disabled = !shown;
    }
  }
}

/** What the form asks for, its ruleset resolved by the service; or why not. */
export interface NewGame {
  kind: string;
  ruleset: unknown;
  timeControl: Record<string, unknown> | null;
  /** Seats the game has (the creator takes the first). */
  players: number;
  opponent: 'seat' | 'challenge' | 'open';
  to: string;
  seat: string;
  message: string;
}

const DAY = 86_400;

export async function readNewGame(form: HTMLFormElement, key: string): Promise<NewGame | string> {
  const f = new FormData(form);
  const kind = String(f.get('kind'));
  const check = CHECKS[kind];
  const typed = check.input(f);
  const { check: answer } = await gql<{ check: { ok: boolean; message: string | null; ruleset: unknown } }>(check.query, { r: typed }, key);
  if (!answer.ok) return `The rules: ${answer.message ?? 'not valid'}`;
  const clock = String(f.get('clock'));
  const timeControl =
    clock === 'CORRESPONDENCE'
      ? { kind: clock, perMoveSeconds: Number(f.get('days')) * DAY, vacationSeconds: Number(f.get('vacationDays')) * DAY }
      : clock === 'FISCHER'
        ? { kind: clock, baseSeconds: Number(f.get('minutes')) * 60, incrementSeconds: Number(f.get('increment')) }
        : null;
  const opponent = String(f.get('opponent')) as NewGame['opponent'];
  return {
    kind,
    ruleset: answer.ruleset,
    timeControl,
    players: kind === 'chicken-foot' ? Number(f.get('players')) : 2,
    opponent,
    to: String(f.get('to') ?? '').trim(),
    seat: String(f.get('seat') ?? 'RANDOM'),
    message: String(f.get('message') ?? '').trim(),
  };
}
