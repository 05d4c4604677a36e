/**
 * Recognising a failure to store: the disk is full (PostgreSQL's SQLSTATE 53100 `disk_full`, an
 * ENOSPC from the embedded database's files, or the embedded database refusing writes because
 * its disk is nearly full), the quota is exhausted, or the storage failed (58030 `io_error`,
 * read-only storage). The API answers these as STORAGE_UNAVAILABLE (HTTP 503), not INTERNAL.
 */

/** The stable code the API answers for a storage failure. */
export const STORAGE_UNAVAILABLE = 'STORAGE_UNAVAILABLE';

/** SQLSTATEs: disk_full, io_error, read_only_sql_transaction (a read-only database or standby). */
const SQLSTATES = new Set(['53100', '58030', '25006']);
/** errno codes: no space, quota exceeded, read-only file system, I/O error. */
const ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);
const MESSAGE = /no space left on device|disk is full|disk full|ENOSPC|EDQUOT|quota exceeded/i;
/**
 * The embedded database's file system (Emscripten) throws `{ name: 'ErrnoError', errno }` with
 * WASI's numbers, not Node's codes: these are the storage ones.
 */
const WASI_ERRNOS: Record<number, string> = { 19: 'EDQUOT', 29: 'EIO', 51: 'ENOSPC', 69: 'EROFS' };

const wasiErrno = (e: { name?: unknown; errno?: unknown }): string | null => (e.name === 'ErrnoError' && typeof e.errno === 'number' ? (WASI_ERRNOS[e.errno] ?? `errno ${e.errno}`) : null);

/** A failure in words for a log or a start-up message, whatever was thrown (never "[object Object]"). */
export function describeFailure(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  if (err && typeof err === 'object') {
    const wasi = wasiErrno(err as { name?: unknown; errno?: unknown });
    if (wasi) return `the embedded database's file system failed (${wasi}${wasi === 'ENOSPC' ? ': no space left on device' : ''})`;
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
    return JSON.stringify(err) ?? String(err);
  }
  return String(err);
}

/**
 * Whether `err` (a pg error, a Prisma error wrapping one, or an errno error), or an error it wraps,
 * is a storage failure.
 */
export function isStorageError(err: unknown): boolean {
  return matches(err, isStorageFailure);
}

/** SQLSTATEs of a connection lost or refused: class 08, and the server shutting down or starting (57P01-57P03). */
const CONNECTION_SQLSTATES = new Set(['08000', '08001', '08003', '08004', '08006', '08007', '57P01', '57P02', '57P03']);
/** errno codes of a connection that cannot be made or was cut. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Prisma's codes for a database it cannot reach, a connection closed, or no connection to be had in time. */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
const CONNECTION_MESSAGE = /connection terminated|connection ended unexpectedly|timeout exceeded when trying to connect|client has encountered a connection error|server closed the connection/i;

/**
 * Whether nothing can be stored now: a storage failure, or the database out of reach (its
 * connection cut by a restart or a failover, refused, timed out). Answered STORAGE_UNAVAILABLE:
 * whatever was asked was not stored, and asking again later may succeed.
 */
export function isUnavailable(err: unknown): boolean {
  return matches(err, (x) => {
    if (isStorageFailure(x)) return true;
    for (const code of [x.code, x.originalCode]) {
      if (typeof code === 'string' && (CONNECTION_SQLSTATES.has(code) || CONNECTION_ERRNOS.has(code) || PRISMA_CONNECTION_CODES.has(code))) return true;
    }
    return typeof x.message === 'string' && CONNECTION_MESSAGE.test(x.message);
  });
}

type ErrorLike = { name?: unknown; errno?: unknown; code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

function isStorageFailure(x: ErrorLike): boolean {
  const wasi = wasiErrno(x);
  if (wasi && ERRNOS.has(wasi)) return true;
  for (const code of [x.code, x.originalCode]) {
    if (typeof code === 'string' && (SQLSTATES.has(code) || ERRNOS.has(code))) return true;
  }
  return typeof x.message === 'string' && MESSAGE.test(x.message);
}

/** Whether `err`, or an error it wraps (a cause, Prisma's driver adapter error), passes `test`. */
function matches(err: unknown, test: (x: ErrorLike) => boolean): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 6 || seen.has(e)) return false;
    seen.add(e);
    const x = e as ErrorLike;
    return test(x) || visit(x.cause, depth + 1) || visit(x.meta?.driverAdapterError, depth + 1);
  };
  return visit(err, 0);
}
