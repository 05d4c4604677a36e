import { Codes, fail, ok, type Result } from '../../../engines/kit/result.js';
import type { Lots } from './lots.js';
import { add, cmp, div, mul, type Rational, rat, sub, sum, ZERO } from './rational.js';
import { type EntryKind, type Format, type GamePointsOrder, type History, type Participant, type PointValues, type RoundEntry, type TieBreak, VOLUNTARILY_UNPLAYED } from './types.js';

/**
 * Standings and tie-breaks (docs/rules/tournaments.md section 8) and the LOTS tie-break (L9.4).
 * A pure function of the participants, the history of the counted rounds and the organizer's
 * list; the only randomness is the labelled lots, and every lot drawn is returned for the
 * caller to record (L9.5).
 */

/** Formats that have standings: knockout ranks by placings instead (TB8.3, K6.9). */
export type StandingsFormat = Exclude<Format, 'knockout' | 'doubleElimination'>;

export interface StandingsInput {
  participants: readonly Participant[];
  /** One entry per participant per round 1..n, index 0 = round 1 (R3.1); later rounds are ignored. */
  history: History;
  /** n: the rounds whose results all count (TB8.4, TB8.11). */
  rounds: number;
  /** D feeds ATP (TB8.6), W feeds SB (TB8.7); unused by the tables tie-breaks. */
  points: PointValues;
  tieBreaks: readonly TieBreak[];
  gamePointsOrder: GamePointsOrder;
  format: 'twoSeat' | 'tables';
  /** For LOTS only (L9.4). */
  lots: Lots;
}

export interface TieBreakValue {
  name: TieBreak;
  /**
   * BH, BH-C1, SB, WON: always set. GP: null with no played game. DE: the value within the
   * innermost tied group it was applied to, null where it did not apply (TB8.10). LOTS: the
   * 1-based position drawn in the tied group, null where no lot was needed.
   */
  value: Rational | null;
}

export interface StandingRow {
  /** Shared by participants still tied after every key (TB8.2). */
  rank: number;
  participantId: string;
  registrationNo: number;
  tp: Rational;
  /** In the organizer's order. */
  tieBreaks: TieBreakValue[];
}

/** One shuffle, as its LotsDrawn event records it (L9.5): registration numbers in, drawn order out. */
export interface StandingsLot {
  label: string;
  input: number[];
  result: number[];
}

export interface Standings {
  rows: StandingRow[];
  lotsDrawn: StandingsLot[];
}

const TWO_SEAT_TIE_BREAKS: readonly TieBreak[] = ['BH', 'BH-C1', 'SB', 'DE', 'WON', 'GP', 'LOTS'];
const TABLES_TIE_BREAKS: readonly TieBreak[] = ['GP', 'WON', 'LOTS'];

const seatingOf = (format: StandingsFormat): StandingsInput['format'] => (format === 'tables' ? 'tables' : 'twoSeat');
const availableFor = (format: StandingsInput['format']): readonly TieBreak[] => (format === 'tables' ? TABLES_TIE_BREAKS : TWO_SEAT_TIE_BREAKS);

/** TB8.3 defaults. */
export function defaultTieBreaks(format: StandingsFormat): TieBreak[] {
  switch (format) {
    case 'swiss':
      return ['BH-C1', 'BH', 'SB', 'WON', 'GP', 'LOTS'];
    case 'roundRobin':
    case 'doubleRoundRobin':
    case 'groupsKnockout':
      return ['DE', 'SB', 'WON', 'GP', 'LOTS'];
    case 'tables':
      return ['GP', 'WON', 'LOTS'];
  }
}

/** The organizer's list: known names (TB8.3), each once, available for the format. */
export function parseTieBreaks(input: unknown, format: StandingsFormat): Result<TieBreak[]> {
  if (!Array.isArray(input)) return fail(Codes.INVALID_INPUT, 'tie-breaks must be a list of names (TB8.3)');
  const available = availableFor(seatingOf(format));
  const list: TieBreak[] = [];
  for (const name of input) {
    const known = TWO_SEAT_TIE_BREAKS.find((t) => t === name);
    if (known === undefined) return fail(Codes.INVALID_INPUT, `unknown tie-break ${JSON.stringify(name)} (TB8.3: ${TWO_SEAT_TIE_BREAKS.join(', ')})`);
    if (list.includes(known)) return fail(Codes.INVALID_INPUT, `tie-break ${known} is listed twice`);
    if (!available.includes(known)) return fail(Codes.INVALID_INPUT, `tie-break ${known} is not available for the ${format} format (TB8.3: ${available.join(', ')})`);
    list.push(known);
  }
  return ok(list);
}

/** One participant's counted rounds: 1..n without REST, which no sum sees (TB8.4, RR4.4). */
interface Tally {
  participant: Participant;
  rounds: readonly RoundEntry[];
  tp: Rational;
}

const isVoluntarilyUnplayed = (kind: EntryKind): boolean => VOLUNTARILY_UNPLAYED.has(kind);
const byRegistrationNo = (a: Tally, b: Tally): number => a.participant.registrationNo - b.participant.registrationNo;

/** Sorts a tied group by `compare` and cuts it into runs the comparison cannot tell apart, best first. */
function splitBy(group: readonly Tally[], compare: (a: Tally, b: Tally) => number): Tally[][] {
  const parts: Tally[][] = [];
  for (const t of [...group].sort(compare)) {
    const last = parts.at(-1);
    if (last && compare(last[0], t) === 0) last.push(t);
    else parts.push([t]);
  }
  return parts;
}

/** Higher values first. */
const descending =
  (value: ReadonlyMap<string, Rational>) =>
  (a: Tally, b: Tally): number =>
    cmp(value.get(b.participant.id)!, value.get(a.participant.id)!);

export function standings(input: StandingsInput): Standings {
  const { participants, history, rounds, points, tieBreaks, gamePointsOrder, format, lots } = input;
  const available = availableFor(format);
  for (const name of tieBreaks) if (!available.includes(name)) throw new RangeError(`tie-break ${name} is not available for ${format} standings (TB8.3)`);

  const tallies = new Map<string, Tally>();
  for (const participant of participants) {
    const entries = (history.get(participant.id) ?? []).filter((e) => e.round <= rounds && e.kind !== 'REST');
    tallies.set(participant.id, { participant, rounds: entries, tp: sum(entries.map((e) => e.tp)) });
  }
  const tallyOf = (id: string, e: RoundEntry): Tally => {
    const t = tallies.get(id);
    if (!t) throw new RangeError(`round ${e.round}: opponent ${id} is not a participant`);
    return t;
  };
  const opponentOf = (e: RoundEntry): Tally => {
    if (e.opponents.length !== 1) throw new RangeError(`round ${e.round}: a 2-seat game needs exactly one opponent`);
    return tallyOf(e.opponents[0], e);
  };

  // TB8.6: TP up to last(y), then D for each later counted round (REST is already left out).
  const adjustedScore = new Map<string, Rational>();
  const atp = (y: Tally): Rational => {
    let value = adjustedScore.get(y.participant.id);
    if (value === undefined) {
      let last = -1;
      let upToLast = ZERO;
      let running = ZERO;
      for (const [i, e] of y.rounds.entries()) {
        running = add(running, e.tp);
        if (!isVoluntarilyUnplayed(e.kind)) [last, upToLast] = [i, running];
      }
      value = add(upToLast, mul(rat(y.rounds.length - 1 - last), points.draw));
      adjustedScore.set(y.participant.id, value);
    }
    return value;
  };

  // TB8.7: c(x, i) per counted round, computed once for BH, BH-C1 and SB.
  const contributions = new Map<string, Rational[]>();
  const contributionsOf = (x: Tally): Rational[] => {
    let c = contributions.get(x.participant.id);
    if (c === undefined) {
      c = x.rounds.map((e) => (e.kind === 'PLAYED' ? atp(opponentOf(e)) : x.tp));
      contributions.set(x.participant.id, c);
    }
    return c;
  };

  const perParticipant = (f: (t: Tally) => Rational): Map<string, Rational> => new Map([...tallies.values()].map((t) => [t.participant.id, f(t)]));

  // TB8.8: the keys whose value does not depend on the tied group.
  const buchholz = (x: Tally): Rational => sum(contributionsOf(x));
  const buchholzCut1 = (x: Tally): Rational => {
    const c = contributionsOf(x);
    const voluntary = c.filter((_, i) => isVoluntarilyUnplayed(x.rounds[i].kind));
    const candidates = voluntary.length > 0 ? voluntary : c;
    const cut = candidates.reduce<Rational | null>((m, v) => (m === null || cmp(v, m) < 0 ? v : m), null) ?? ZERO;
    return sub(buchholz(x), cut);
  };
  const sonnebornBerger = (x: Tally): Rational => sum(contributionsOf(x).map((c, i) => mul(c, div(x.rounds[i].tp, points.win))));
  const won = (x: Tally): Rational => rat(x.rounds.filter((e) => e.kind === 'PLAYED' && (format === 'tables' ? e.firstPlace : e.result === 'win')).length);
  const gamePoints = (x: Tally): Rational | null => {
    const games = x.rounds.filter((e) => e.kind === 'PLAYED' && e.gamePoints !== null);
    return games.length === 0 ? null : div(sum(games.map((e) => e.gamePoints!)), rat(games.length));
  };

  const values = new Map<TieBreak, ReadonlyMap<string, Rational | null>>();
  const compareBy = new Map<TieBreak, (a: Tally, b: Tally) => number>();
  for (const name of tieBreaks) {
    if (name === 'DE' || name === 'LOTS') continue;
    if (name === 'GP') {
      const gp = new Map([...tallies.values()].map((t) => [t.participant.id, gamePoints(t)]));
      const better = gamePointsOrder === 'higher' ? 1 : -1;
      values.set(name, gp);
      // No played game ranks after everyone (TB8.8).
      compareBy.set(name, (a, b) => {
        const [x, y] = [gp.get(a.participant.id)!, gp.get(b.participant.id)!];
        if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
        return better * cmp(y, x);
      });
      continue;
    }
    const value = perParticipant({ BH: buchholz, 'BH-C1': buchholzCut1, SB: sonnebornBerger, WON: won }[name]);
    values.set(name, value);
    compareBy.set(name, descending(value));
  }

  // TB8.10: DE splits a group only if every pair in it played; the parts are split again.
  const directEncounter = new Map<string, Rational>();
  values.set('DE', directEncounter);
  const playedAgainst = (x: Tally): Set<string> => new Set(x.rounds.filter((e) => e.kind === 'PLAYED').map((e) => opponentOf(e).participant.id));
  const everyPairPlayed = (group: readonly Tally[]): boolean =>
    group.every((x) => {
      const met = playedAgainst(x);
      // met.size bounds the check, so a large group fails at once instead of costing |group|^2.
      return met.size >= group.length - 1 && group.every((y) => y === x || met.has(y.participant.id));
    });
  const splitByDirectEncounter = (group: Tally[]): Tally[][] => {
    if (group.length < 2 || !everyPairPlayed(group)) return [group];
    const members = new Set(group.map((t) => t.participant.id));
    const score = new Map<string, Rational>();
    for (const x of group) {
      const against = x.rounds.filter((e) => e.kind === 'PLAYED' && members.has(e.opponents[0]));
      score.set(x.participant.id, sum(against.map((e) => e.tp)));
    }
    // An inner group overwrites the outer value: the row shows DE within the innermost group it was applied to.
    for (const [id, value] of score) directEncounter.set(id, value);
    const parts = splitBy(group, descending(score));
    return parts.length === 1 ? parts : parts.flatMap(splitByDirectEncounter);
  };

  // L9.4: the tied group, by registrationNo, shuffled under its own label.
  const drawnPosition = new Map<string, Rational>();
  values.set('LOTS', drawnPosition);
  const lotsDrawn: StandingsLot[] = [];
  const splitByLots = (group: Tally[]): Tally[][] => {
    if (group.length < 2) return [group];
    const byNo = new Map(group.map((t) => [t.participant.registrationNo, t]));
    const lotInput = [...byNo.keys()].sort((a, b) => a - b);
    const label = `standings|r${rounds}|${lotInput.join(',')}`;
    const result = lots.shuffle(label, lotInput);
    lotsDrawn.push({ label, input: lotInput, result });
    return result.map((no, i) => {
      const t = byNo.get(no)!;
      drawnPosition.set(t.participant.id, rat(i + 1));
      return [t];
    });
  };

  // TB8.1: TP first, then each key splits only the groups every earlier key left tied.
  let groups = splitBy([...tallies.values()], descending(perParticipant((t) => t.tp)));
  for (const name of tieBreaks) {
    const split = name === 'DE' ? splitByDirectEncounter : name === 'LOTS' ? splitByLots : (g: Tally[]) => splitBy(g, compareBy.get(name)!);
    groups = groups.flatMap((g) => (g.length < 2 ? [g] : split(g)));
  }

  // TB8.2: a group still tied shares the rank of its first place and is listed by registrationNo.
  const rows: StandingRow[] = [];
  for (const group of groups) {
    const rank = rows.length + 1;
    for (const t of [...group].sort(byRegistrationNo)) {
      const id = t.participant.id;
      rows.push({
        rank,
        participantId: id,
        registrationNo: t.participant.registrationNo,
        tp: t.tp,
        tieBreaks: tieBreaks.map((name) => ({ name, value: values.get(name)!.get(id) ?? null })),
      });
    }
  }
  return { rows, lotsDrawn };
}

/** One participant's round in a crosstable: the entry as recorded, with opponents' numbers for display. */
export interface CrosstableCell {
  round: number;
  kind: EntryKind;
  /** The 2-seat opponent or the table-mates; empty for byes, absences and REST. */
  opponents: { id: string; registrationNo: number }[];
  seat: number | null;
  result: RoundEntry['result'];
  tp: Rational;
}

export interface CrosstableRow {
  participantId: string;
  registrationNo: number;
  cells: CrosstableCell[];
}

/** Every participant's rounds 1..n (REST included, for display), by registrationNo. */
export function crosstable(input: Pick<StandingsInput, 'participants' | 'history' | 'rounds'>): CrosstableRow[] {
  const registrationNo = new Map(input.participants.map((p) => [p.id, p.registrationNo]));
  const numberOf = (id: string, round: number): number => {
    const no = registrationNo.get(id);
    if (no === undefined) throw new RangeError(`round ${round}: opponent ${id} is not a participant`);
    return no;
  };
  return [...input.participants]
    .sort((a, b) => a.registrationNo - b.registrationNo)
    .map((p) => ({
      participantId: p.id,
      registrationNo: p.registrationNo,
      cells: (input.history.get(p.id) ?? [])
        .filter((e) => e.round <= input.rounds)
        .map((e) => ({
          round: e.round,
          kind: e.kind,
          opponents: e.opponents.map((id) => ({ id, registrationNo: numberOf(id, e.round) })),
          seat: e.seat,
          result: e.result,
          tp: e.tp,
        })),
    }));
}
