/** A refusal with a stable machine code; the API layers turn it into a typed result or status. */
export class RefereeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Seconds before trying again helps (RATE_LIMITED). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}
