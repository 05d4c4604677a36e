import type { LoggerService } from '@nestjs/common';
import { type Logger, pino } from 'pino';
import type { LogLevel } from '../config/config.js';

/**
 * The service's pino logger: JSON lines on stdout (`{"level":"info","time":"<ISO>","msg":...}`),
 * nothing under LOG_LEVEL (`silent`: nothing at all). It writes through `process.stdout`, which
 * is synchronous for files and pipes (nothing is lost when the process exits).
 */
export function createLogger(level: LogLevel): Logger {
  return pino(
    {
      level,
      // No pid or hostname on every line: the orchestrator labels the process' output.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    process.stdout,
  );
}

/** Nest's logging on the pino logger, with the Nest context (`context`) and an error's stack (`stack`). */
export class PinoLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  private write(level: 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, context?: unknown, stack?: unknown): void {
    this.pino[level]({ context: typeof context === 'string' ? context : undefined, stack, msg: message instanceof Error ? message.message : message });
  }

  log(message: unknown, context?: unknown): void {
    this.write('info', message, context);
  }
  error(message: unknown, stackOrContext?: unknown, context?: unknown): void {
    // Nest passes (message, stack, context), or (message, context) when there is no stack.
    const hasStack = typeof context === 'string';
    this.write('error', message, hasStack ? context : stackOrContext, hasStack ? stackOrContext : undefined);
  }
  warn(message: unknown, context?: unknown): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: unknown): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: unknown): void {
    this.write('debug', message, context);
  }
  fatal(message: unknown, context?: unknown): void {
    this.write('fatal', message, context);
  }
}
