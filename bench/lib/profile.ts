import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

/**
 * A CPU profile of a service process for a chosen stretch of time, through the V8 inspector of a
 * process started with `--inspect=127.0.0.1:<port>` (the Chrome DevTools protocol over a
 * WebSocket): unlike `--cpu-prof`, which covers the whole life of the process, it leaves out
 * start-up and warm-up. The summary charges each sample's self time to a package: Node's own
 * modules (`node:`), a package under node_modules, the project's `src/<folder>` or `bench`, and
 * V8's garbage collector. A sample in a V8 builtin (JSON.stringify, a RegExp, no script of its
 * own) is charged to the nearest caller that has one, so JSON work shows under whoever asked for it.
 */

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** 1 ms, Node's own default for --cpu-prof: finer sampling costs the measured process more. */
const SAMPLING_INTERVAL_US = 1000;

export class InspectorProfiler {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id !== undefined ? this.pending.get(message.id) : undefined;
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  /** Attaches to the inspector listening on `port` of this machine. */
  static async attach(port: number): Promise<InspectorProfiler> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const profiler = new InspectorProfiler(socket);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    return profiler;
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  start(): Promise<void> {
    return this.send('Profiler.start');
  }

  async stop(): Promise<CpuProfile> {
    const { profile } = (await this.send('Profiler.stop')) as { profile: CpuProfile };
    return profile;
  }

  close(): void {
    this.socket.close();
  }
}

/** The package a script belongs to, from its URL. */
function packageOf(url: string, functionName: string, projectRoot: string): string | null {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return 'V8 (program: compiler, runtime)';
    if (functionName === '(idle)') return 'idle';
    return null;
  }
  if (url.startsWith('node:')) return 'node core';
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [first, second] = path.slice(inModules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const own = path.startsWith(projectRoot) ? path.slice(projectRoot.length).replace(/^\/(dist\/)?/, '') : null;
  if (own?.startsWith('src/')) return own.split('/').slice(0, 2).join('/');
  if (own !== null) return own.split('/')[0];
  return path;
}

export interface ProfileSummary {
  /** Sampled milliseconds, idle excluded. */
  busyMs: number;
  idleMs: number;
  packages: { name: string; ms: number; share: number }[];
  /** Node core by module (node:internal/streams/writable…), the biggest ones. */
  nodeCore: { name: string; ms: number; share: number }[];
  /** The functions with the most self time. */
  functions: { name: string; pkg: string; ms: number; share: number }[];
}

/** `top`: how many functions to list (all of them to compare two profiles). */
export function summarise(profile: CpuProfile, projectRoot: string, top = 20): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerCache = new Map<number, { pkg: string; node: ProfileNode }>();
  const ownerOf = (id: number): { pkg: string; node: ProfileNode } => {
    const cached = ownerCache.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const pkg = packageOf(node.callFrame.url, node.callFrame.functionName, projectRoot);
    const up = parent.get(id);
    const owner = pkg !== null ? { pkg, node } : up !== undefined ? { pkg: ownerOf(up).pkg, node } : { pkg: 'V8 builtins', node };
    ownerCache.set(id, owner);
    return owner;
  };
  const packages = new Map<string, number>();
  const core = new Map<string, number>();
  const functions = new Map<string, { pkg: string; ms: number }>();
  // Each sample counts one sampling interval: a sample's time delta would also count the time the
  // process waited for a core (the bench shares a busy machine), charged to wherever it stopped.
  profile.samples.forEach((id) => {
    const ms = SAMPLING_INTERVAL_US / 1000;
    const { pkg, node } = ownerOf(id);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    if (pkg === 'node core' && node.callFrame.url) core.set(node.callFrame.url, (core.get(node.callFrame.url) ?? 0) + ms);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '')}`;
    const f = functions.get(name) ?? { pkg, ms: 0 };
    f.ms += ms;
    functions.set(name, f);
  });
  const idleMs = packages.get('idle') ?? 0;
  packages.delete('idle');
  functions.delete('(idle) ');
  const busyMs = [...packages.values()].reduce((a, b) => a + b, 0);
  const ranked = <T extends { ms: number }>(rows: T[]) => rows.sort((a, b) => b.ms - a.ms).map((r) => ({ ...r, share: r.ms / busyMs }));
  return {
    busyMs,
    idleMs,
    packages: ranked([...packages].map(([name, ms]) => ({ name, ms }))),
    nodeCore: ranked([...core].map(([name, ms]) => ({ name, ms }))).slice(0, 8),
    functions: ranked([...functions].map(([name, f]) => ({ name, ...f }))).slice(0, top),
  };
}

export function writeProfile(path: string, profile: CpuProfile): void {
  writeFileSync(path, JSON.stringify(profile));
}
