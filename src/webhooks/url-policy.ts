import { isPublicAddress, namedAddress } from '../config/addresses.js';
import type { WebhookHost } from '../config/config.js';
import { RefereeError } from '../referee/index.js';

const MAX_URL = 2048;

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Whether a URL's host (and port: the scheme's when none is written) is one WEBHOOK_ALLOWED_HOSTS names. */
export function hostAllowed(url: URL, allowed: readonly WebhookHost[] | '*'): boolean {
  if (allowed === '*') return true;
  const port = portOf(url);
  return allowed.some((h) => h.hostname === url.hostname && (h.port === null || h.port === port));
}

/**
 * Whether the URL may reach `address`, one its host resolved to: a public address when the host
 * is allowed; any other only when an entry names this host and port exactly (`10.0.0.5:8080`,
 * `localhost:9000`, `bot:8080`): `*` and entries without a port reach public addresses alone.
 */
export function addressAllowed(url: URL, address: string, allowed: readonly WebhookHost[] | '*'): boolean {
  if (!hostAllowed(url, allowed)) return false;
  if (isPublicAddress(address)) return true;
  const port = portOf(url);
  return allowed !== '*' && allowed.some((h) => h.hostname === url.hostname && h.port === port);
}

/**
 * A webhook URL as registered: http or https, no credentials, a host the operator allows. A
 * name is not resolved now (what it resolves to is the network's, checked at every delivery);
 * an address, or `localhost`, that no delivery could reach is refused at once.
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
  const address = namedAddress(url.hostname);
  if (!hostAllowed(url, allowed) || (address !== null && !addressAllowed(url, address, allowed))) {
    throw new RefereeError(
      'WEBHOOK_NOT_ALLOWED',
      `${url.host} is not a host this service may send webhooks to (its operator lists them in WEBHOOK_ALLOWED_HOSTS; a loopback, private or link-local address only when named with its port)`,
    );
  }
  return url.href;
}
