import './log-status.css';
import { html, type Markup } from '../html.js';
import type { Stop } from '../layout.js';
import type { LogStatus } from '../verify/log.js';

/** How often a page asks again while its game or tournament waits for the log's next checkpoint (the log signs every 10 s by default). */
export const WAIT_MS = 5_000;

/**
 * Checks a finished stream's place in the log, and again every WAIT_MS while it waits for a
 * checkpoint; each answer is shown. The checker comes from the verifier's chunk, loaded lazily
 * (scripts/build-pages.mjs): only a finished game's or tournament's page loads it.
 */
export function followLog(check: () => Promise<LogStatus | null>, show: (status: LogStatus | null) => void): Stop {
  let stopped = false;
  let timer = 0;
  const run = async () => {
    const status = await check();
    if (stopped) return;
    show(status);
    if (status?.state === 'waiting') timer = window.setTimeout(() => void run(), WAIT_MS);
  };
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The key the page trusted, by name and id, to compare with one kept from elsewhere. */
const keyText = (key: { name: string; keyId: string } | null): Markup =>
  key ? html`the log's key <code>${key.name}</code> (key id <code>${key.keyId}</code>, from <a href="/api/log/key">/api/log/key</a>)` : html`no key`;

/** The log's status in words, announced when it changes (role="status"). */
export function logView(status: LogStatus | 'checking', what: 'game' | 'tournament'): Markup {
  if (status === 'checking') return html`<p class="badge" data-log="checking" role="status">Checking the public log in your browser…</p>`;
  if (status.state === 'waiting') {
    return html`<p class="badge" data-log="waiting" role="status">Waiting for the next checkpoint</p>
      <p class="small muted">This ${what} is finished but not yet in a signed checkpoint of the public log; the page asks again every ${WAIT_MS / 1000} s. It will trust ${keyText(status.key)}.</p>`;
  }
  if (status.state === 'failed') {
    return html`<p class="badge badge-bad" data-log="failed" role="status">✘ Not verified against the public log</p>
      <p class="small" data-log-problem>${status.problem}</p><p class="small muted">Checked with ${keyText(status.key)}.</p>`;
  }
  return html`<p class="badge badge-ok" data-log="included" role="status">✔ Included in the public log at checkpoint ${status.checkpoint}</p>
    <p class="small muted">Leaf ${status.leafIndex} of the tree of ${status.checkpoint} (${status.origin}): the inclusion proof and the checkpoint's Ed25519 signature
    verified in your browser (${status.by}) with ${keyText(status.key)}.</p>`;
}
