import type { LoggerService } from '@nestjs/common';
import { LOG_LEVELS, type LogLevel } from '../config/config.js';

/** One JSON object per line on stdout/stderr, so logs can be shipped and queried as they are. */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(level: LogLevel) {
    this.threshold = LOG_LEVELS.indexOf(level);
  }

  private write(level: LogLevel, message: unknown, context?: unknown, extra?: Record<string, unknown>): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      context: typeof context === 'string' ? context : undefined,
      msg: message instanceof Error ? message.message : message,
      ...extra,
    });
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  }

  log(message: unknown, context?: unknown): void {
    this.write('info', message, context);
  }
  error(message: unknown, stackOrContext?: unknown, context?: unknown): void {
    const hasStack = typeof context === 'string';
    this.write('error', message, hasStack ? context : stackOrContext, hasStack ? { stack: stackOrContext } : undefined);
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
}
