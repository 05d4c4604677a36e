import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { parseSignerKey, type SigningKey, signerKeyText } from '../referee/index.js';

/** Where a generated key is kept: the data folder, readable by the service's user only. */
export const KEY_FILE = 'log-signing-key';

/**
 * The log's Ed25519 signing key: LOG_SIGNING_KEY when given (every instance of one log must be
 * given the same), else the one in the data folder, generated there at the first start (named
 * after LOG_ORIGIN). A bad key stops the start with a message naming where it came from.
 */
export function loadSigningKey(config: Pick<Config, 'logSigningKey' | 'logOrigin' | 'dataDir'>): SigningKey {
  if (config.logSigningKey) return parsed(config.logSigningKey, 'LOG_SIGNING_KEY');
  const file = join(config.dataDir, KEY_FILE);
  try {
    return parsed(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // `wx`: of two processes starting at once on one folder, the second reads the first's key.
    writeFileSync(file, `${signerKeyText(config.logOrigin, randomBytes(32))}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parsed(readFileSync(file, 'utf8'), file);
}

function parsed(text: string, where: string): SigningKey {
  try {
    return parseSignerKey(text);
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
}
