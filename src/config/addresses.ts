import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** The IPv6 global unicast block: outside it nothing is public (ipaddr.js counts some of it as unicast). */
const GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];
/** Cloud metadata services: also refused as link-local or unique-local, named here so that no later range table forgets them. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** A URL's host as an address, without an IPv6 literal's brackets (null for a name). */
export const literalAddress = (hostname: string): string | null => {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
};

/** The address a URL's host names by itself: an address literal, or loopback for `localhost` (RFC 6761); null for other names. */
export const namedAddress = (hostname: string): string | null => literalAddress(hostname) ?? (hostname === 'localhost' || hostname.endsWith('.localhost') ? '127.0.0.1' : null);

/**
 * Whether an address is public: unicast on the internet, not loopback, private (RFC 1918),
 * link-local, unique-local, carrier-grade NAT, unspecified, reserved, multicast, a tunnel's or
 * translation's (which can lead to any of those) or a cloud's metadata service. An IPv4 address
 * mapped into IPv6 is judged as itself.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (METADATA.has(ip.toString())) return false;
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(GLOBAL_UNICAST)) return false;
  return ip.range() === 'unicast';
}
