import type { ConsequenceRows } from './event-store.js';

/**
 * How the PostgreSQL adapter writes one projection's rows inside the statement that appends
 * their events (see ConsequenceRows): its owner registers it (ProjectionWriters), the store
 * knows nothing else of it.
 */
export interface ProjectionSql<Row = unknown> {
  readonly projection: string;
  /**
   * The rows of one statement (several appends' when they are written together) as its one
   * parameter, and the variant of SQL they need: a short name part that always means the same
   * text (the statement is prepared under a name made of the variants).
   */
  parameter(rows: readonly Row[]): { variant: string; value: unknown };
  /**
   * Data-modifying common table expressions (`name AS (...)`, comma-separated) that write the
   * rows given in parameter `param` (`$3`, ...), for `variant`. Their names are the projection's
   * own, unique in a statement. They must not refuse the events: a failure rolls back the append.
   */
  ctes(param: string, variant: string): string;
}

/**
 * The projections' SQL writers, registered by the modules that own them (the deadlines, the
 * webhooks' outbox) and used by the PostgreSQL event store, in the order registered.
 */
export class ProjectionWriters {
  private readonly writers = new Map<string, ProjectionSql>();

  /** Writes `writer.projection`'s rows from now on, until the returned function is called. */
  register<Row>(writer: ProjectionSql<Row>): () => void {
    if (this.writers.has(writer.projection)) throw new Error(`projection ${writer.projection} has a writer already`);
    this.writers.set(writer.projection, writer as ProjectionSql);
    return () => {
      if (this.writers.get(writer.projection) === writer) this.writers.delete(writer.projection);
    };
  }

  /** The writers, in the order registered. */
  all(): Iterable<ProjectionSql> {
    return this.writers.values();
  }

  has(projection: string): boolean {
    return this.writers.has(projection);
  }
}

/**
 * Each projection's part of a statement writing `consequences`: its CTEs, on parameters pushed
 * onto `values`, in the writers' order, and the statement's name part (its variants).
 */
export function projectionParts(writers: ProjectionWriters, consequences: readonly ConsequenceRows[], values: unknown[]): { name: string; ctes: string[] } {
  let name = '';
  const ctes: string[] = [];
  for (const writer of writers.all()) {
    const rows = consequences.flatMap((c) => (c.projection === writer.projection ? c.rows : []));
    if (rows.length === 0) continue;
    const { variant, value } = writer.parameter(rows);
    values.push(value);
    ctes.push(writer.ctes(`$${values.length}`, variant));
    name += `-${writer.projection}${variant ? `-${variant}` : ''}`;
  }
  return { name, ctes };
}

/** Refuses rows of a projection no writer is registered for (a module that forgot to register its writer). */
export function checkWriters(writers: ProjectionWriters, consequences: readonly ConsequenceRows[]): void {
  for (const c of consequences) if (c.rows.length > 0 && !writers.has(c.projection)) throw new Error(`no writer is registered for projection ${c.projection}`);
}

/** What the stores need of a transaction: Prisma's interactive one. */
export interface RawTransaction {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Writes `consequences` in a transaction of a stream that is not a game's (a challenge's), with its events: one statement. */
export async function insertProjections(tx: RawTransaction, writers: ProjectionWriters, consequences: readonly ConsequenceRows[]): Promise<void> {
  checkWriters(writers, consequences);
  const values: unknown[] = [];
  const { ctes } = projectionParts(writers, consequences, values);
  if (ctes.length > 0) await tx.$executeRawUnsafe(`WITH ${ctes.join(', ')} SELECT 1`, ...values);
}
