import type { ImportedRecord } from '../../engines/kit/index.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { endingWords, seatWords } from '../core/game/outcome-words.js';
import { replayEntries } from '../core/game/views.js';
import type { EventStore } from '../store/event-store.js';
import type { GameQueries } from './game-queries.js';
import type { GameSetup, NewGameAnswer, PreparedGame } from './game-setup.js';
import type { RecordParser } from './record-parser.js';
import { unwrap } from './seat-tokens.js';

/** Games in their community record formats: exported from the log, imported as a new game. */
export class Records {
  constructor(
    private readonly registry: EngineRegistry,
    private readonly store: EventStore,
    private readonly queries: GameQueries,
    private readonly setup: GameSetup,
    private readonly parser: RecordParser,
  ) {}

  async export(gameId: string): Promise<{ contentType: string; text: string }> {
    const game = await this.queries.game(gameId);
    if (!game.engine.exportRecord) throw new RefereeError('INVALID_INPUT', `${game.kind} has no record format`);
    await this.queries.finished(gameId, 'record');
    // An unnamed seat is written as the game calls it (White, IA, seat 2): imported back, the game tells its end in the same words.
    const names = game.seatNames.map((_, i) => seatWords(game.engine, game.seatNames)(i));
    const text = game.engine.exportRecord(game.ruleset, replayEntries(await this.store.events(gameId)), names, endingWords(game, game.seatNames) ?? undefined);
    return { contentType: game.engine.recordContentType ?? 'text/plain', text };
  }

  /** Parses the record with its engine; the decider replays it under the checks of live play. */
  async import(kind: string, text: string): Promise<NewGameAnswer> {
    return this.setup.import(await this.parsed(kind, text), kind);
  }

  /** The record replayed into a game that is not stored yet (see GameSetup.preparedImport). */
  async prepare(kind: string, text: string): Promise<PreparedGame> {
    return this.setup.preparedImport(await this.parsed(kind, text), kind);
  }

  private async parsed(kind: string, text: string): Promise<ImportedRecord> {
    const engine = this.registry.get(kind);
    if (!engine) throw new RefereeError('INVALID_INPUT', `unknown game kind "${kind}"; this referee plays: ${this.registry.kinds().join(', ')}`);
    if (!engine.importRecord) throw new RefereeError('INVALID_INPUT', `${kind} has no record format to import`);
    return unwrap(await this.parser.parse(engine, text));
  }
}
