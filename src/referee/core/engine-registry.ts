import type { Engine } from '../../engines/kit/index.js';

/** The games this referee knows, by kind: the application hands its engine list in at start-up. */
export class EngineRegistry {
  private readonly engines = new Map<string, Engine>();

  static of(engines: readonly Engine<any, any, any>[]): EngineRegistry {
    const registry = new EngineRegistry();
    for (const engine of engines) registry.register(engine);
    return registry;
  }

  register(engine: Engine<any, any, any>): void {
    if (this.engines.has(engine.kind)) throw new Error(`engine ${engine.kind} registered twice`);
    this.engines.set(engine.kind, engine as Engine);
  }

  get(kind: string): Engine | undefined {
    return this.engines.get(kind);
  }

  kinds(): string[] {
    return [...this.engines.keys()].sort();
  }
}
