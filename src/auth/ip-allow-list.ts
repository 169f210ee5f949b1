// Channel IP allow-lists: IPv4 and IPv6 CIDRs (or bare addresses). An empty list
// allows every address. IPv4-mapped IPv6 clients (::ffff:a.b.c.d) match IPv4 rules.
import { BlockList, isIP } from 'node:net';

export function parseCidr(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Canonical text of a valid entry (`10.0.0.0/8`, `2001:db8::/32`), or undefined. */
export function normalizeCidr(entry: string): string | undefined {
  const parsed = parseCidr(entry);
  return parsed ? `${parsed.address.toLowerCase()}/${parsed.prefix}` : undefined;
}

const cache = new Map<string, BlockList>();

function blockListFor(cidrs: readonly string[]): BlockList {
  const key = cidrs.join(',');
  let list = cache.get(key);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const parsed = parseCidr(cidr);
      if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(key, list);
  }
  return list;
}

export function isIpAllowed(ip: string, cidrs: readonly string[]): boolean {
  if (cidrs.length === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const family = isIP(address);
  if (family === 0) return false;
  return blockListFor(cidrs).check(address, family === 4 ? 'ipv4' : 'ipv6');
}
