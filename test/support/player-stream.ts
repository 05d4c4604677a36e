/** One line of a player's stream (GET /api/me/stream). */
export interface Notice {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, any>;
}

/** Polls until `done`; the deadline is a safety net, not a speed requirement. */
export async function until(done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

/** GET /api/me/stream of the service at `url`, kept open: its notices as they come (keep-alive lines skipped). */
export function openStream(url: string, key: string | null, { after, lastEventId }: { after?: string; lastEventId?: string } = {}) {
  const abort = new AbortController();
  const notices: Notice[] = [];
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const answered = fetch(`${url}/api/me/stream${after ? `?after=${encodeURIComponent(after)}` : ''}`, { headers, signal: abort.signal });
  const read = answered.then(async (res) => {
    if (res.status !== 200) return;
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const lines = text.split('\n');
        text = lines.pop()!;
        for (const line of lines) if (line.trim()) notices.push(JSON.parse(line));
      }
    } catch {
      // Closed by the test.
    }
  });
  return {
    answered,
    notices,
    /** The notices once there are `n` of them. */
    async first(n: number): Promise<Notice[]> {
      await until(() => notices.length >= n, `${n} notices (have ${JSON.stringify(notices)})`);
      return notices.slice(0, n);
    },
    async close() {
      abort.abort();
      await read.catch(() => undefined);
    },
  };
}
