// Which IP addresses a webhook delivery may never reach. Checked on every resolved
// address at delivery time, so a channel cannot point its URL (or its DNS) at our own
// network. Parsed by hand instead of node:net BlockList because the IPv6 forms that
// carry an IPv4 inside (mapped, compatible, NAT64, 6to4) need the embedded address.
import { isIP } from 'node:net';

type Range = readonly [base: string, bits: number, reason: string];

// Order matters: the first matching range names the reason.
const V4_RANGES: readonly Range[] = [
  ['0.0.0.0', 32, 'endereço não especificado'],
  ['0.0.0.0', 8, 'rede reservada'],
  ['10.0.0.0', 8, 'rede privada'],
  ['100.64.0.0', 10, 'rede CGNAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'rede privada'],
  ['192.0.0.0', 24, 'rede reservada'],
  ['192.0.2.0', 24, 'rede de documentação'],
  // Deprecated 6to4 relay anycast (RFC 7526): nobody's webhook lives there.
  ['192.88.99.0', 24, 'rede reservada'],
  ['192.168.0.0', 16, 'rede privada'],
  ['198.18.0.0', 15, 'rede de benchmark'],
  ['198.51.100.0', 24, 'rede de documentação'],
  ['203.0.113.0', 24, 'rede de documentação'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'rede reservada'],
];

const V6_RANGES: readonly Range[] = [
  ['ff00::', 8, 'multicast'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (obsoleto)'],
  ['fc00::', 7, 'rede privada (ULA)'],
  ['100::', 64, 'rede de descarte'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'rede de documentação'],
  ['3fff::', 20, 'rede de documentação'],
  // IETF protocol assignments (ORCHID, benchmarking, AS112…): not for webhooks.
  ['2001::', 23, 'rede reservada'],
];

const v4Table = V4_RANGES.map(([base, bits, reason]) => ({ base: v4ToNumber(base), bits, reason }));
const v6Table = V6_RANGES.map(([base, bits, reason]) => ({ base: v6ToBigInt(base), bits, reason }));

const MAPPED = v6ToBigInt('::ffff:0:0');
const NAT64 = v6ToBigInt('64:ff9b::');
const NAT64_LOCAL = v6ToBigInt('64:ff9b:1::');
const SIX_TO_FOUR = v6ToBigInt('2002::');
const GLOBAL_UNICAST = v6ToBigInt('2000::');

/** 127.0.0.0/8, ::1 and the IPv4-mapped form of 127.0.0.0/8: what the development switch lets through. */
export function isLoopbackAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return ip.startsWith('127.');
  if (family !== 6) return false;
  const addr = v6ToBigInt(ip);
  return addr === 1n || (inPrefix(addr, MAPPED, 96) && Number(addr & 0xffff_ffffn) >>> 24 === 127);
}

/** A short pt-BR reason when `ip` must never be contacted; undefined when it is public. */
export function forbiddenAddressReason(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return v4Reason(v4ToNumber(ip));
  if (family === 6) return v6Reason(v6ToBigInt(ip));
  return 'endereço inválido';
}

function v4Reason(addr: number): string | undefined {
  for (const range of v4Table) {
    const shift = 32 - range.bits;
    if (Math.floor(addr / 2 ** shift) === Math.floor(range.base / 2 ** shift)) return range.reason;
  }
  return undefined;
}

function v6Reason(addr: bigint): string | undefined {
  if (addr === 0n) return 'endereço não especificado';
  if (addr === 1n) return 'loopback';
  const low32 = Number(addr & 0xffff_ffffn);
  const embedded = (label: string, allowedWhenPublic: boolean): string | undefined => {
    const inner = v4Reason(low32);
    if (inner) return `${inner} (${label})`;
    return allowedWhenPublic ? undefined : `${label} (obsoleto)`;
  };
  // ::ffff:a.b.c.d is how a dual-stack socket spells a plain IPv4 address.
  if (inPrefix(addr, MAPPED, 96)) return embedded('IPv4 mapeado', true);
  // ::a.b.c.d (deprecated by RFC 4291): no legitimate host uses it any more.
  if (inPrefix(addr, 0n, 96)) return embedded('IPv4 compatível', false);
  if (inPrefix(addr, NAT64, 96)) return embedded('NAT64', true);
  // Local-use NAT64 (RFC 8215) places the IPv4 where the operator chose; we cannot
  // tell which address it reaches, so it is refused outright.
  if (inPrefix(addr, NAT64_LOCAL, 48)) return 'NAT64 de uso local';
  if (inPrefix(addr, SIX_TO_FOUR, 16)) {
    const inner = v4Reason(Number((addr >> 80n) & 0xffff_ffffn));
    return inner ? `${inner} (6to4)` : undefined;
  }
  for (const range of v6Table) if (inPrefix(addr, range.base, range.bits)) return range.reason;
  // Outside 2000::/3 nothing is assigned as global unicast.
  if (!inPrefix(addr, GLOBAL_UNICAST, 3)) return 'rede reservada';
  return undefined;
}

function inPrefix(addr: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return addr >> shift === base >> shift;
}

function v4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

/** Expects text that node:net isIP accepts as IPv6; a zone id (`%eth0`) is ignored. */
function v6ToBigInt(ip: string): bigint {
  let text = ip.split('%')[0]!.toLowerCase();
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = v4ToNumber(text.slice(lastColon + 1));
    tail.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
    text = text.endsWith('::', lastColon + 1) ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = [...(rest === undefined ? [] : groups(rest)), ...tail];
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
}
