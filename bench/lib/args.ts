/**
 * A bench's command line: `--name value` flags, and the database it runs the service on
 * (`--postgres URL`, else a new embedded PGlite folder; `--pglite` says so explicitly).
 */
export function benchArgs(args: readonly string[] = process.argv.slice(2)) {
  const flag = (name: string, fallback: string): string => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const postgresUrl = flag('postgres', '') || null;
  if (postgresUrl && args.includes('--pglite')) throw new Error('--pglite and --postgres exclude each other');
  return { args, flag, postgresUrl };
}
