/** The one `Buffer` call the referee core makes (a seed's hex to bytes), injected into the page's build. */
export const Buffer = {
  from(hex: string, _encoding: 'hex'): Uint8Array {
    return Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
  },
};
