import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/**
 * A backup of the embedded database (docs/high-availability.md, "Backups") is a tar, gzipped, of
 * what the data folder needs: `pglite/...`, the database's files as PGlite's dumpDataDir copied
 * them, and the other files named here (the transparency log's generated key). So
 * `tar -xzf backup -C DATA_DIR` restores it as `npm run restore` does. POSIX ustar, written and
 * read here: PGlite's own tar names its entries from the database folder's root (`/base/1/112`)
 * and makes them world-readable; the copy holds every game's secret seed, so owner-only here.
 */

const BLOCK = 512;
/** The embedded database's folder inside DATA_DIR (DatabaseService opens DATA_DIR/pglite). */
export const DATABASE_FOLDER = 'pglite';

/** The socket the running service answers backups on: in a folder only its user may enter. */
export function backupSocketPath(dataDir: string): string {
  return join(resolve(dataDir), 'admin', 'backup.sock');
}

export interface ArchiveEntry {
  /** Relative, `/`-separated. */
  name: string;
  type: 'file' | 'folder';
  data: Uint8Array;
}

/** The archive: `files` first, then PGlite's entries under `pglite/`. */
export function dataFolderTar(pgliteTar: Uint8Array, files: { name: string; data: Uint8Array }[]): Buffer {
  const parts: Buffer[] = [];
  const add = (e: ArchiveEntry) => {
    parts.push(header(e));
    if (e.type === 'file' && e.data.length > 0) parts.push(Buffer.from(e.data), Buffer.alloc(padding(e.data.length)));
  };
  for (const f of files) add({ ...f, type: 'file' });
  add({ name: DATABASE_FOLDER, type: 'folder', data: new Uint8Array() });
  for (const e of tarEntries(pgliteTar)) {
    const inside = e.name.replace(/^\/+|\/+$/g, '');
    if (inside) add({ ...e, name: `${DATABASE_FOLDER}/${inside}` });
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/** The entries of a tar: regular files and folders only (anything else is refused). */
export function* tarEntries(tar: Uint8Array): Generator<ArchiveEntry> {
  const buf = Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength);
  for (let at = 0; at + BLOCK <= buf.length; ) {
    const h = buf.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return;
    const field = (from: number, length: number) => h.toString('utf8', from, from + length).replace(/\0.*$/s, '');
    const ustar = field(257, 6) === 'ustar';
    const name = [ustar ? field(345, 155) : '', field(0, 100)].filter(Boolean).join('/');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const flag = field(156, 1) || '0';
    if (!Number.isFinite(size) || (flag !== '0' && flag !== '5')) throw new Error(`not a backup made by Arbiter: the tar entry "${name}" is of type "${flag}"`);
    at += BLOCK;
    if (at + size > buf.length) throw new Error(`the backup is cut short inside "${name}"`);
    yield { name, type: flag === '5' ? 'folder' : 'file', data: buf.subarray(at, at + size) };
    at += size + padding(size);
  }
}

/** Writes the archive's entries into `dir` (owner-only); refuses a name outside it, and never overwrites. Returns the files written. */
export function extractDataFolder(tar: Uint8Array, dir: string): number {
  const root = resolve(dir);
  let files = 0;
  for (const e of tarEntries(tar)) {
    const path = resolve(root, e.name);
    if (path !== root && !path.startsWith(root + sep)) throw new Error(`the backup names a file outside its folder: ${e.name}`);
    if (e.type === 'folder') {
      if (!existsSync(path)) mkdirSync(path, { recursive: true, mode: 0o700 });
      continue;
    }
    mkdirSync(resolve(path, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(path, e.data, { mode: 0o600, flag: 'wx' });
    files++;
  }
  return files;
}

/** Whether `dir` already holds an embedded database (a restore never writes over one). */
export function holdsDatabase(dir: string): boolean {
  const folder = join(dir, DATABASE_FOLDER);
  return existsSync(folder) && readdirSync(folder).length > 0;
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function header(e: ArchiveEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const name = e.type === 'folder' ? `${e.name}/` : e.name;
  if (Buffer.byteLength(name) > 100) throw new Error(`a file name too long for the backup's tar: ${name}`);
  const octal = (at: number, length: number, n: number) => h.write(`${n.toString(8).padStart(length - 1, '0')}\0`, at, length, 'latin1');
  h.write(name, 0, 100, 'utf8');
  octal(100, 8, e.type === 'folder' ? 0o700 : 0o600);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, e.type === 'folder' ? 0 : e.data.length);
  octal(136, 12, Math.floor(Date.now() / 1000));
  h.write(e.type === 'folder' ? '5' : '0', 156, 1, 'latin1');
  h.write('ustar\u000000', 257, 8, 'latin1');
  // The checksum: the header's bytes summed with its own field read as spaces.
  h.fill(0x20, 148, 156);
  const sum = h.reduce((a, b) => a + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return h;
}
