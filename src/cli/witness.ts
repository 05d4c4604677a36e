import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Checkpoint, parseCheckpoint, parseSignerKey, parseVerifierKey, signerKeyText, type VerifierKey } from '../referee/core/tlog/checkpoint.js';
import { cosignerKeyText, cosignerOf } from '../referee/core/tlog/cosignature.js';
import { addCheckpoint } from '../referee/core/tlog/witness.js';

/**
 * A transparency log witness (c2sp.org/tlog-witness; docs/transparency.md): `npm run witness --
 * --log-key <log key> [--origin <origin>] --state <folder> [--port 7380] [--host 127.0.0.1]
 * [--name witness.localhost/w1]`. It answers `POST /add-checkpoint`, keeps in its folder the last
 * checkpoint it cosigned of each log (written before it answers), and cosigns a checkpoint only if
 * the log's key signed it and it provably extends that one. Its own key is generated into the
 * folder at the first start; its verifier key (what verifiers give as --witness-key) is printed
 * and served at `GET /key`. A refused checkpoint signed by the log is kept under `refused/`: it may
 * be the log's fork, signed.
 */
export interface WitnessOptions {
  logKeys: string[];
  /** The origin the log keys sign for (default: each key's name). */
  origin?: string;
  stateDir: string;
  name?: string;
  port?: number;
  host?: string;
  /** Unix seconds (tests set the clock). */
  now?: () => number;
}

export interface RunningWitness {
  url: string;
  verifierKey: string;
  close(): Promise<void>;
}

const KEY_FILE = 'witness-key';

function loadKey(dir: string, name: string) {
  const file = join(dir, KEY_FILE);
  try {
    writeFileSync(file, `${signerKeyText(name, randomBytes(32))}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return cosignerOf(parseSignerKey(readFileSync(file, 'utf8')));
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy(new Error('request too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export async function startWitness(options: WitnessOptions): Promise<RunningWitness> {
  const { stateDir } = options;
  mkdirSync(join(stateDir, 'logs'), { recursive: true });
  const cosigner = loadKey(stateDir, options.name ?? 'witness.localhost/w1');
  const keys = new Map<string, VerifierKey[]>();
  for (const text of options.logKeys) {
    const key = parseVerifierKey(text);
    const origin = options.origin ?? key.name;
    keys.set(origin, [...(keys.get(origin) ?? []), key]);
  }
  const stateFile = (origin: string) => join(stateDir, 'logs', `${createHash('sha256').update(origin).digest('hex')}.checkpoint`);
  const last = (origin: string): Checkpoint | null => {
    try {
      return parseCheckpoint(readFileSync(stateFile(origin), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  // One request at a time: the check of the old size and the write of the new checkpoint are one step (the spec's race).
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    const reply = (status: number, text: string, type = 'text/plain; charset=utf-8') => res.writeHead(status, { 'content-type': type }).end(text);
    if (req.method === 'GET' && req.url === '/key') {
      reply(200, `${cosignerKeyText(cosigner)}\n`);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/add-checkpoint') {
      reply(404, 'not found\n');
      return;
    }
    const step = queue.then(async () => {
      const text = await body(req);
      const answer = addCheckpoint(text, { cosigner, logKeys: (o) => keys.get(o) ?? [], last }, now());
      if (answer.status === 200) {
        const file = stateFile(answer.origin);
        writeFileSync(`${file}.tmp`, answer.keep);
        renameSync(`${file}.tmp`, file);
      } else if ('evidence' in answer && answer.evidence) {
        mkdirSync(join(stateDir, 'refused'), { recursive: true });
        writeFileSync(join(stateDir, 'refused', `${now()}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}.txt`), text);
      }
      return answer;
    });
    queue = step.catch(() => undefined);
    step.then(
      (a) => reply(a.status, a.body, 'contentType' in a && a.contentType ? a.contentType : undefined),
      (err: Error) => reply(400, `${err.message}\n`),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    verifierKey: cosignerKeyText(cosigner),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      'log-key': { type: 'string', multiple: true },
      origin: { type: 'string' },
      state: { type: 'string' },
      port: { type: 'string', default: '7380' },
      host: { type: 'string' },
      name: { type: 'string' },
    },
  });
  if (!values['log-key']?.length || !values.state) {
    process.stderr.write('usage: npm run witness -- --log-key <log key from GET /api/log/key> --state <folder> [--origin <origin>] [--port 7380] [--host 127.0.0.1] [--name witness.localhost/w1]\n');
    process.exit(2);
  }
  const w = await startWitness({ logKeys: values['log-key'], origin: values.origin, stateDir: values.state, port: Number(values.port), host: values.host, name: values.name });
  process.stdout.write(`witness listening at ${w.url}/add-checkpoint\nits key (give it to verifiers as --witness-key, and to the log in LOG_WITNESSES): ${w.verifierKey}\n`);
}
