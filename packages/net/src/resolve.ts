import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './address.ts';
import { HostNotFoundError, UnsafeAddressError } from './errors.ts';

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const records = await lookup(hostname, { all: true, verbatim: true });
  return records.map((record) => record.address);
};

export interface CheckHostOptions {
  resolve?: Resolver;
  /** Development switch: accept private and loopback addresses. */
  allowPrivate?: boolean;
  /** Only for error messages. */
  url?: string;
}

/** `hostname` as WHATWG URL gives it, without the brackets around an IPv6 literal. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Resolves `hostname` (or takes an IP literal as is) and checks every address.
 * Returns the addresses, all public; throws `UnsafeAddressError` when any one is not,
 * so a host with one public and one private record is refused.
 */
export async function checkPublicHost(hostname: string, options: CheckHostOptions = {}): Promise<string[]> {
  const host = bareHost(hostname);
  const url = options.url ?? host;
  const addresses = isIP(host) ? [host] : await resolveAll(host, url, options.resolve ?? systemResolver);
  if (!options.allowPrivate) {
    for (const address of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.public) throw new UnsafeAddressError(url, host, address, verdict.reason);
    }
  }
  return addresses;
}

async function resolveAll(host: string, url: string, resolve: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new HostNotFoundError(url, host, { cause: error });
  }
  if (!addresses.length) throw new HostNotFoundError(url, host);
  return addresses;
}
