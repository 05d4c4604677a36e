import type { WebhookHost } from '../config/config.js';
import { RefereeError } from '../referee/index.js';

const MAX_URL = 2048;

/** Whether a URL's host (and port: the scheme's when none is written) is one WEBHOOK_ALLOWED_HOSTS names. */
export function hostAllowed(url: URL, allowed: readonly WebhookHost[] | '*'): boolean {
  if (allowed === '*') return true;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return allowed.some((h) => h.hostname === url.hostname && (h.port === null || h.port === port));
}

/**
 * A webhook URL as registered: http or https, no credentials, a host the operator allows. Only
 * parsed: nothing is resolved now (what a name resolves to is the network's, at delivery).
 */
export function checkWebhookUrl(raw: string, allowed: readonly WebhookHost[] | '*'): string {
  let url: URL;
  try {
    if (raw.length > MAX_URL) throw new TypeError('too long');
    url = new URL(raw);
  } catch {
    throw new RefereeError('INVALID_INPUT', `url must be an absolute http(s) URL of at most ${MAX_URL} characters`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefereeError('INVALID_INPUT', `url must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) throw new RefereeError('INVALID_INPUT', 'url must not carry credentials (user:password@): authenticate deliveries by their signature');
  if (allowed !== '*' && allowed.length === 0) {
    throw new RefereeError('WEBHOOK_NOT_ALLOWED', "this service sends no webhooks: its operator allows no host (set WEBHOOK_ALLOWED_HOSTS to the receivers' hosts)");
  }
  if (!hostAllowed(url, allowed)) {
    throw new RefereeError('WEBHOOK_NOT_ALLOWED', `${url.host} is not a host this service may send webhooks to (its operator lists them in WEBHOOK_ALLOWED_HOSTS)`);
  }
  return url.href;
}
