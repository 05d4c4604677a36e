import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { serviceEntry, startService, type RunningService } from '../../tools/service.js';
import { readHolder } from '../../src/database/data-dir-lock.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { createDatabase, isNewDatabase, START_PARAMS } from '../../src/database/pglite-create.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { startApp, type TestApp } from '../support/app.js';
import { freePort, gqlAt as gql } from '../support/net.js';
import { fillDisk, suiteTmpfs } from '../support/tmpfs.js';

/**
 * The embedded database (PGlite) as a clumsy or hostile user meets it: a second process on the
 * same folder, a local process looking for a port to connect to, concurrent traffic, a full disk.
 * Tests marked "embedded" always use PGlite (they are about it); the others run on the database
 * under test (PostgreSQL with TEST_DATABASE_URL). Nothing here depends on the machine's speed:
 * every wait is for an event, with generous safety nets.
 */

const pgUrl = process.env.TEST_DATABASE_URL || null;
const MAT = readFileSync(resolve(import.meta.dirname, '../fixtures/backgammon/match-7-pt-seed119785.mat'), 'utf8');
const CREATE_BACKGAMMON = `mutation { createGame(input: { kind: "backgammon", ruleset: { matchLength: 3 } }) {
  __typename ... on GameCreated { game { id version } } ... on Rejection { code message } } }`;
const GAME_BY_ID = `query($id: ID!) { game(id: $id) { id version status } }`;

/** Starts the built service (dist/src/main.js) as its own process, and returns its exit code and output. */
function runToExit(env: Record<string, string>, port: number): Promise<{ code: number | string | null; output: string }> {
  const child = spawn(process.execPath, [serviceEntry()], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return new Promise((done) => child.on('exit', (code, signal) => done({ code: signal ?? code, output })));
}

/** Starts the built service and waits until it answers /healthz, or until it exits (then its code and output). */
async function launch(env: Record<string, string>, port: number): Promise<{ running: RunningService } | { exited: number | string | null; output: string }> {
  const child = spawn(process.execPath, [serviceEntry()], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return { exited: await exited, output };
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { running: { url, process: child, log: () => output, exited } };
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service neither started nor exited within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(service: RunningService | null, signal: NodeJS.Signals = 'SIGTERM') {
  if (!service || service.process.exitCode !== null || service.process.signalCode !== null) return;
  service.process.kill(signal);
  await service.exited;
}

/** The sockets a process listens on: TCP ports and Unix socket paths (Linux /proc). */
function listeningSockets(pid: number): { tcp: number[]; unix: string[] } {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  const tcp: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (field 9); st 0A is LISTEN.
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9])) tcp.push(Number.parseInt(f[1].split(':')[1], 16));
    }
  }
  const unix: string[] = [];
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // Num RefCount Protocol Flags Type St Inode Path; flag 0x10000 (__SO_ACCEPTCON) is a listening socket.
    if (f.length > 6 && inodes.has(f[6]) && (Number.parseInt(f[3], 16) & 0x10000) !== 0) unix.push(f[7] ?? '(unnamed)');
  }
  return { tcp: [...new Set(tcp)].sort(), unix };
}

describe('the embedded database, across processes (built service)', () => {
  const dirs: string[] = [];
  const services: RunningService[] = [];
  afterAll(async () => {
    for (const s of services) await stop(s, 'SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('embedded: a second process on the same DATA_DIR exits at once naming the folder and the holder; a killed holder’s stale lock is taken over and nothing acknowledged is lost', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-lock-'));
    dirs.push(dataDir);
    const first = await startService({ DATA_DIR: dataDir, CREATE_QUOTA_PER_HOUR: '0' }, await freePort());
    services.push(first);
    const created = (await gql(first.url, CREATE_BACKGAMMON)).data.createGame;
    expect(created.__typename).toBe('GameCreated');

    const second = await runToExit({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, await freePort());
    expect(second.code).not.toBe(0);
    expect(second.output).toContain(`DATA_DIR ${resolve(dataDir)} is in use by another Arbiter process (pid ${first.process.pid}`);
    // The first one was not disturbed.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect((await gql(first.url, GAME_BY_ID, { id: created.game.id })).data.game.version).toBe(created.game.version);

    // The holder dies without closing anything: its lock file stays, naming a pid that no longer runs.
    first.process.kill('SIGKILL');
    await first.exited;
    expect(readHolder(join(dataDir, 'arbiter.lock'))?.pid).toBe(first.process.pid);
    const third = await startService({ DATA_DIR: dataDir, CREATE_QUOTA_PER_HOUR: '0' }, await freePort());
    services.push(third);
    expect(third.log()).toContain(`taking over the lock of pid ${first.process.pid}, which no longer runs`);
    expect((await gql(third.url, GAME_BY_ID, { id: created.game.id })).data.game).toMatchObject({ id: created.game.id, version: created.game.version });
    expect(readHolder(join(dataDir, 'arbiter.lock'))?.pid).toBe(third.process.pid);

    // A clean stop removes the lock.
    await stop(third);
    expect(await third.exited).toBe(0);
    expect(readHolder(join(dataDir, 'arbiter.lock'))).toBeNull();
  }, 300_000);

  it('embedded: with its lock file deleted, a second process on the same DATA_DIR is still refused, and the holder goes on (20 of 40 acknowledged moves were lost this way)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-unlocked-'));
    dirs.push(dataDir);
    const first = await startService({ DATA_DIR: dataDir, CREATE_QUOTA_PER_HOUR: '0' }, await freePort());
    services.push(first);
    const created = (await gql(first.url, CREATE_BACKGAMMON)).data.createGame;
    unlinkSync(join(dataDir, 'arbiter.lock'));
    const second = await runToExit({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, await freePort());
    expect(second.code).not.toBe(0);
    // Named from the lock file once the holder has written it back (it checks every 15 s), else "on this machine".
    expect(second.output).toContain(`DATA_DIR ${resolve(dataDir)} is in use by another Arbiter process`);
    expect(second.output).not.toMatch(/\bdelete\b/i);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect((await gql(first.url, GAME_BY_ID, { id: created.game.id })).data.game.version).toBe(created.game.version);
    await stop(first);
  }, 300_000);

  (existsSync('/proc/self/fd') ? it : it.skip)(
    `${pgUrl ? 'postgresql' : 'embedded'}: the service listens on its HTTP port only (no database port; the embedded database's sockets are its lock's and its owner-only backup's), and the embedded data folder is owner-only`,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-listen-'));
      dirs.push(dataDir);
      const port = await freePort();
      const service = await startService(pgUrl ? { DATABASE_URL: pgUrl } : { DATA_DIR: dataDir }, port);
      services.push(service);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const { tcp, unix } = listeningSockets(service.process.pid!);
      // The embedded database's sockets: its data folder's lock (abstract, accepting nothing) and the online backup's, in an owner-only folder.
      expect({ tcp, unix: [...unix].sort() }).toEqual({ tcp: [port], unix: pgUrl ? [] : [join(dataDir, 'admin', 'backup.sock'), expect.stringMatching(/^@arbiter-data-dir:\d+:\d+@*$/)] });
      if (!pgUrl) for (const folder of ['pglite', 'admin']) expect(statSync(join(dataDir, folder)).mode & 0o777).toBe(0o700);
      await stop(service);
    },
    180_000,
  );
});

describe(`health and concurrency (${pgUrl ? 'postgresql' : 'pglite'})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every request while records are imported, seats joined and health and reads polled at once: no 500', async () => {
    const JOIN = `mutation($id: ID!) { joinGame(gameId: $id, input: { name: "late" }) { __typename ... on Rejection { code message } } }`;
    const OPEN = `mutation { createGame(input: { kind: "duel", seats: [{ name: "a" }, { open: true }] }) { ... on GameCreated { game { id } } } }`;
    const seed = (await gql(t.url, CREATE_BACKGAMMON)).data.createGame.game.id;
    let importing = true;
    const failures: string[] = [];
    const check = (what: string, ok: boolean, detail: unknown) => {
      if (!ok) failures.push(`${what}: ${JSON.stringify(detail).slice(0, 300)}`);
    };
    const poll = async (once: () => Promise<void>) => {
      let n = 0;
      // At least a few rounds each, and on until the imports are done.
      while (importing || n < 3) {
        await once();
        n++;
      }
      return n;
    };
    const pollers = Promise.all([
      poll(async () => {
        const res = await fetch(`${t.url}/healthz`);
        check('healthz', res.status === 200, await res.text());
      }),
      poll(async () => {
        const res = await fetch(`${t.url}/readyz`);
        check('readyz', res.status === 200, await res.text());
      }),
      poll(async () => {
        const res = await gql(t.url, `{ games(first: 5) { nodes { id version status } } }`);
        check('games', !res.errors && Array.isArray(res.data?.games?.nodes), res);
      }),
      poll(async () => {
        const res = await gql(t.url, GAME_BY_ID, { id: seed });
        check('game', !res.errors && res.data?.game?.id === seed, res);
      }),
      poll(async () => {
        // An interactive transaction (the seat claim) on the single embedded connection.
        const id = (await gql(t.url, OPEN)).data?.createGame?.game?.id;
        const res = await gql(t.url, JOIN, { id });
        check('join', res.data?.joinGame?.__typename === 'SeatJoined', res);
      }),
    ]);
    const ROUNDS = 3;
    const AT_ONCE = 4;
    const imported: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await Promise.all(
          Array.from({ length: AT_ONCE }, () => fetch(`${t.url}/api/games/import?kind=backgammon`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: MAT })),
        );
        for (const res of answers) {
          const body = await res.json();
          check('import', res.status === 201, body);
          if (res.status === 201) imported.push(body.id);
        }
      }
    } finally {
      importing = false;
    }
    const rounds = await pollers;
    expect(failures).toEqual([]);
    expect(imported).toHaveLength(ROUNDS * AT_ONCE);
    expect(rounds.every((n) => n >= 3)).toBe(true);
    const verdict = (await gql(t.url, `query($id: ID!) { verifyGame(gameId: $id) { ok } }`, { id: imported[0] })).data.verifyGame;
    expect(verdict.ok).toBe(true);
  }, 300_000);

  it('/healthz says alive and /readyz ready, with short codes and no path or database text', async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    const healthBody = await health.json();
    expect(healthBody).toEqual({ status: 'ok', database: t.backend });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  (pgUrl ? it.skip : it)('embedded: a nearly full disk (simulated) turns /readyz 503 STORAGE_UNAVAILABLE and refuses writes; reads and /healthz go on; freed, all is back', async () => {
    const db = t.app.get(DatabaseService);
    const referee = t.app.get(RefereeService);
    const before = db.storageReserveBytes;
    const seed = (await gql(t.url, CREATE_BACKGAMMON)).data.createGame.game.id;
    try {
      // No disk has this much free: the guard refuses writes as if the disk were full.
      db.storageReserveBytes = Number.MAX_SAFE_INTEGER;
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'STORAGE_UNAVAILABLE' });
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      // A write fails as a storage error (the API's answer code is the ErrorFilter's business).
      const refused = await referee.createGame({ kind: 'backgammon' }).then(
        () => null,
        (err) => err,
      );
      expect(refused).not.toBeNull();
      expect(db.isStorageError(refused)).toBe(true);
      const answer = await gql(t.url, CREATE_BACKGAMMON);
      expect(answer.data?.createGame?.__typename).not.toBe('GameCreated');
      expect(JSON.stringify(answer)).not.toMatch(/pglite|\/tmp|No space/);
      // Reads go on.
      expect((await gql(t.url, GAME_BY_ID, { id: seed })).data.game.id).toBe(seed);
    } finally {
      db.storageReserveBytes = before;
    }
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    expect((await gql(t.url, CREATE_BACKGAMMON)).data.createGame.__typename).toBe('GameCreated');
  });

  it('/readyz answers 503 DRAINING once the referee drains for shutdown; /healthz stays 200', async () => {
    await t.app.get(RefereeService).drain();
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'DRAINING' });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});

(pgUrl ? describe.skip : describe)('a new data folder', () => {
  it('embedded: its database is created by a process of its own and runs with 16MB of shared buffers; a restart keeps its games', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-new-'));
    try {
      const first = await startApp({ dataDir });
      const setting = async (app: TestApp, name: string) => (await app.app.get(DatabaseService).pool.query(`SHOW ${name}`)).rows[0][name];
      let id: string;
      try {
        expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
        expect(await setting(first, 'shared_buffers')).toBe('16MB');
        expect(await setting(first, 'maintenance_work_mem')).toBe('16MB');
        id = (await gql(first.url, CREATE_BACKGAMMON)).data.createGame.game.id;
      } finally {
        await first.close();
      }
      const again = await startApp({ dataDir });
      try {
        expect(await setting(again, 'shared_buffers')).toBe('16MB');
        expect((await gql(again.url, GAME_BY_ID, { id })).data.game.id).toBe(id);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('embedded: the process that creates it answers its pid and leaves an initialised folder; a failure says why', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'arbiter-create-')), 'pglite');
    try {
      mkdirSync(dir);
      expect(isNewDatabase(dir)).toBe(true);
      const pid = await createDatabase(dir);
      expect(pid).not.toBe(process.pid);
      expect(isNewDatabase(dir)).toBe(false);
      const other = join(dirname(dir), 'other');
      mkdirSync(other);
      await expect(createDatabase(other, [...START_PARAMS, '-c', 'shared_buffers=nonsense'])).rejects.toThrow(/shared_buffers/);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }, 300_000);
});

const tmpfs = suiteTmpfs(192, !pgUrl);

(tmpfs ? describe : describe.skip)('a full disk (tmpfs, built service)', () => {
  let service: RunningService | null = null;
  afterAll(async () => {
    await stop(service, 'SIGKILL');
  });

  it('embedded: refuses writes and turns /readyz 503 while the disk is full, survives a kill there, and opens the same folder once space is freed', async () => {
    const dataDir = join(tmpfs!, 'data');
    mkdirSync(dataDir);
    const env = { DATA_DIR: dataDir, CREATE_QUOTA_PER_HOUR: '0' };
    service = await startService(env, await freePort());
    const created = (await gql(service.url, CREATE_BACKGAMMON)).data.createGame;
    expect(created.__typename).toBe('GameCreated');

    const filler = fillDisk(tmpfs!);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'STORAGE_UNAVAILABLE' });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const refused = await gql(service.url, CREATE_BACKGAMMON);
    expect(refused.data?.createGame?.__typename).not.toBe('GameCreated');
    // STORAGE_UNAVAILABLE once the API maps DatabaseService.isStorageError (INTERNAL until then).
    expect(['STORAGE_UNAVAILABLE', 'INTERNAL']).toContain(refused.errors?.[0]?.extensions?.code ?? refused.data?.createGame?.code);
    expect((await gql(service.url, GAME_BY_ID, { id: created.game.id })).data.game.id).toBe(created.game.id);
    expect(service.log()).toContain('writes are refused until space is freed');

    // Killed while the disk is full, and started again while it still is: it starts refusing
    // writes (or, if the database cannot even recover, exits saying the disk is full).
    service.process.kill('SIGKILL');
    await service.exited;
    const whileFull = await launch(env, await freePort());
    if ('exited' in whileFull) {
      expect(whileFull.exited).not.toBe(0);
      expect(whileFull.output).toMatch(/disk is full/);
      expect(whileFull.output).not.toContain('PGlite failed to initialize properly');
    } else {
      service = whileFull.running;
      expect(await (await fetch(`${service.url}/readyz`)).json()).toEqual({ status: 'unavailable', reason: 'STORAGE_UNAVAILABLE' });
      expect((await gql(service.url, GAME_BY_ID, { id: created.game.id })).data.game.id).toBe(created.game.id);
      service.process.kill('SIGKILL');
      await service.exited;
    }

    rmSync(filler);
    service = await startService(env, await freePort());
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    expect((await gql(service.url, GAME_BY_ID, { id: created.game.id })).data.game).toMatchObject({ id: created.game.id, version: created.game.version });
    expect((await gql(service.url, CREATE_BACKGAMMON)).data.createGame.__typename).toBe('GameCreated');
    await stop(service);
  }, 300_000);
});
