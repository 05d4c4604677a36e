/** A refusal with a stable machine code; the API layers turn it into a typed result or status. */
export class RefereeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** HTTP status for a refusal code on the REST API. */
export function httpStatusOf(code: string): number {
  switch (code) {
    case 'NOT_FOUND':
      return 404;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'VERSION_CONFLICT':
    case 'GAME_NOT_FINISHED':
    case 'MOVE_ID_REUSED':
      return 409;
    case 'RATE_LIMITED':
      return 429;
    case 'SHUTTING_DOWN':
      return 503;
    case 'INVALID_INPUT':
      return 400;
    default:
      return 422;
  }
}
