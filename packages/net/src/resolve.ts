import { lookup, Resolver as DnsClient } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './address.ts';
import { HostNotFoundError, UnsafeAddressError } from './errors.ts';

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The system's way (getaddrinfo): the hosts file, then DNS. */
export const systemLookup: Resolver = async (hostname) => {
  const records = await lookup(hostname, { all: true, verbatim: true });
  return records.map((record) => record.address);
};

/** Answers that come at once and leave the system's lookup to be asked: DNS does not know the name, or no DNS server takes queries. */
const ASK_THE_SYSTEM = new Set(['ENOTFOUND', 'ENODATA', 'ECONNREFUSED', 'EREFUSED']);

/**
 * Resolves a name as the system does, first from the hosts file (`localhost`, a container's
 * `extra_hosts`, a pinned name), then through DNS with c-ares, whose queries run on the event
 * loop and give up after `timeoutMs` and `tries`. getaddrinfo (`dns.lookup`) holds one of
 * libuv's four threads, shared with file and crypto work, until the system's resolver gives up,
 * and cannot be cancelled: a few hosts whose name servers never answer (anyone may name one in
 * a webhook or a medium's address) would stall every other lookup and file read behind them.
 * A name DNS does not know is then looked up the system's way (search domains, other name
 * services); a server that does not answer in time is a failure, not a fallback.
 */
export function dnsResolver(options: {
  servers?: string[]; timeoutMs?: number; tries?: number; hostsFile?: string; fallback?: Resolver;
} = {}): Resolver {
  const client = new DnsClient({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
  if (options.servers) client.setServers(options.servers);
  const fallback = options.fallback ?? systemLookup;
  return async (hostname) => {
    const pinned = await fromHostsFile(options.hostsFile ?? '/etc/hosts', hostname);
    if (pinned.length) return pinned;
    // RFC 6761: localhost and its subdomains are the loopback, never asked of DNS.
    if (/(^|\.)localhost\.?$/i.test(hostname)) return ['127.0.0.1', '::1'];
    const answers = await Promise.allSettled([client.resolve4(hostname), client.resolve6(hostname)]);
    const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length) return addresses;
    const failures = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as NodeJS.ErrnoException] : []));
    if (failures.every((failure) => ASK_THE_SYSTEM.has(failure.code ?? ''))) return fallback(hostname);
    throw failures.find((failure) => !ASK_THE_SYSTEM.has(failure.code ?? ''));
  };
}

export const systemResolver: Resolver = dnsResolver();

/** The addresses the hosts file gives a name; read each time, as the system does: it is small and may change. */
async function fromHostsFile(path: string, hostname: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return text.split('\n').flatMap((line) => {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    return address && isIP(address) && names.some((alias) => alias.toLowerCase() === name) ? [address] : [];
  });
}

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
