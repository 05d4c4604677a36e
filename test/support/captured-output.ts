/**
 * Everything the service writes to stdout (its logs) from `start()` to `stop()`, kept off the
 * terminal: what a test greps for what must never be logged.
 */
export function capturedOutput() {
  let output = '';
  const write = process.stdout.write;
  return {
    start(): void {
      process.stdout.write = ((chunk: string | Uint8Array) => {
        output += String(chunk);
        return true;
      }) as typeof process.stdout.write;
    },
    stop(): void {
      process.stdout.write = write;
    },
    get text(): string {
      return output;
    },
  };
}
