import ipaddr from 'ipaddr.js';

/** Whether an address may be reached from the service, and if not, why in words. */
export type AddressVerdict = { public: true } | { public: false; reason: string };

type Block = { range: [ipaddr.IPv4 | ipaddr.IPv6, number]; reason: string };

function blocks(list: [cidr: string, reason: string][]): Block[] {
  return list.map(([cidr, reason]) => ({ range: ipaddr.parseCIDR(cidr), reason }));
}

const PRIVATE = 'a private network address';
const DOCUMENTATION = 'a documentation address';
const SPECIAL = 'a special-purpose address';

// IANA IPv4 special-purpose registry, every block that is not globally reachable.
// The broadcast address comes before 240/4 so it gets the more precise reason.
const V4_BLOCKS = blocks([
  ['255.255.255.255/32', 'the broadcast address'],
  ['0.0.0.0/8', 'an unspecified address'],
  ['10.0.0.0/8', PRIVATE],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', PRIVATE],
  ['192.0.0.0/24', SPECIAL],
  ['192.0.2.0/24', DOCUMENTATION],
  ['192.31.196.0/24', SPECIAL],
  ['192.52.193.0/24', SPECIAL],
  ['192.88.99.0/24', 'a 6to4 relay address'],
  ['192.168.0.0/16', PRIVATE],
  ['192.175.48.0/24', SPECIAL],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', DOCUMENTATION],
  ['203.0.113.0/24', DOCUMENTATION],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved address'],
]);

const V6_BLOCKS = blocks([
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  ['::ffff:0:0/96', 'an IPv4-mapped IPv6 address'],
  ['::ffff:0:0:0/96', 'an IPv4-translated IPv6 address'],
  ['::/96', 'an IPv4-compatible IPv6 address'],
  ['64:ff9b:1::/48', 'a local-use NAT64 address'],
  ['100::/64', 'a discard-only address'],
  ['fc00::/7', 'a unique-local address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
  ['2001:db8::/32', DOCUMENTATION],
  ['3fff::/20', DOCUMENTATION],
  ['2001:2::/48', 'a benchmarking address'],
  ['2001::/23', SPECIAL],
  ['5f00::/16', 'a segment-routing address'],
]);

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

function matching(address: ipaddr.IPv4 | ipaddr.IPv6, list: Block[]): Block | undefined {
  return list.find((block) => address.kind() === block.range[0].kind() && address.match(block.range));
}

function v4(parts: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(parts);
}

/** The IPv4 addresses an IPv6 transition address leads to (NAT64, 6to4, Teredo server and client). */
function embeddedV4(address: ipaddr.IPv6): { via: string; inner: ipaddr.IPv4[] } | null {
  const bytes = address.toByteArray();
  if (address.match(NAT64)) return { via: 'NAT64', inner: [v4(bytes.slice(12, 16))] };
  if (address.match(SIX_TO_FOUR)) return { via: '6to4', inner: [v4(bytes.slice(2, 6))] };
  if (address.match(TEREDO)) {
    const client = bytes.slice(12, 16).map((b) => b ^ 0xff);
    return { via: 'Teredo', inner: [v4(bytes.slice(4, 8)), v4(client)] };
  }
  return null;
}

function classifyV4(address: ipaddr.IPv4): AddressVerdict {
  const block = matching(address, V4_BLOCKS);
  return block ? { public: false, reason: block.reason } : { public: true };
}

function classifyV6(address: ipaddr.IPv6): AddressVerdict {
  const embedded = embeddedV4(address);
  if (embedded) {
    for (const inner of embedded.inner) {
      const verdict = classifyV4(inner);
      // Named by its kind only: a host name's refusal must not tell the address inside.
      if (!verdict.public) return { public: false, reason: `a ${embedded.via} address that leads to ${verdict.reason}` };
    }
    return { public: true };
  }
  const block = matching(address, V6_BLOCKS);
  if (block) return { public: false, reason: block.reason };
  if (!address.match(GLOBAL_UNICAST)) return { public: false, reason: 'not a global unicast address' };
  return { public: true };
}

/**
 * ipaddr.js reads any dotted tail as IPv4-mapped (`::127.0.0.1` as `::ffff:127.0.0.1`);
 * the WHATWG URL parser gives the exact form (`::7f00:1`).
 */
function canonical(text: string): string {
  if (!text.includes(':') || !text.includes('.')) return text;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

/** Classifies an IP address (v4 or v6, a zone id allowed) as public or not, with the reason. */
export function classifyAddress(ip: string): AddressVerdict {
  const text = canonical(ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip);
  if (!ipaddr.isValid(text)) return { public: false, reason: 'not an IP address' };
  const address = ipaddr.parse(text);
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
}

/** True when the address is globally reachable: no loopback, private, link-local or special range. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).public;
}
