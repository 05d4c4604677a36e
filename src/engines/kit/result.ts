/** Errors are values with a stable machine code and a message a person can act on. */
export interface RuleViolation {
  code: string;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: RuleViolation };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: string, message: string): Result<T> => ({ ok: false, error: { code, message } });

/** Codes shared by every engine; games may add their own upper-case codes. */
export const Codes = {
  INVALID_INPUT: 'INVALID_INPUT',
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  ILLEGAL_MOVE: 'ILLEGAL_MOVE',
  GAME_OVER: 'GAME_OVER',
  NO_PENDING_DECISION: 'NO_PENDING_DECISION',
} as const;
