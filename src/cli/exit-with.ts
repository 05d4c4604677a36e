/** Exits with the code a command's work answers; on a failure, says `<what> failed: <why>` and exits 1. */
export function exitWith(work: Promise<number>, what: string): void {
  work.then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`${what} failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}
