import { fromHex } from './sha256.js';

/** The one `Buffer` call the referee core makes (a seed's hex to bytes), injected into the page's build. */
export const Buffer = {
  from(hex: string, _encoding: 'hex'): Uint8Array {
    return fromHex(hex);
  },
};
