import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver, type Resolver } from './resolve.ts';

/**
 * A name server on this machine: `public.test` has one A record, `dual.test` an A and an
 * AAAA, `gone.test` does not exist, and names under `silent.test` are never answered, as a
 * host whose name servers are down (or made to be) looks to a resolver. A hosts file of its own
 * pins `silent.test` itself.
 */
let server: Socket;
let address: string;
let dir: string;
let hostsFile: string;
const asked: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-hosts-'));
  hostsFile = join(dir, 'hosts');
  await writeFile(hostsFile, '# pinned\n127.0.0.1\tlocalhost\n10.1.2.3 pinned.test  Silent.Test # a container\'s extra_hosts\n');
  server = createSocket('udp4');
  server.on('message', (message, from) => {
    const query = packet.decode(message);
    const question = query.questions![0]!;
    asked.push(`${question.type} ${question.name}`);
    if (question.name.endsWith('silent.test')) return;
    const records: packet.Answer[] = [];
    if (question.name === 'public.test' && question.type === 'A') records.push({ type: 'A', name: question.name, ttl: 60, data: '93.184.216.34' });
    if (question.name === 'dual.test' && question.type === 'A') records.push({ type: 'A', name: question.name, ttl: 60, data: '93.184.216.35' });
    if (question.name === 'dual.test' && question.type === 'AAAA') records.push({ type: 'AAAA', name: question.name, ttl: 60, data: '2606:2800:220:1::35' });
    const known = question.name !== 'gone.test';
    const answer = packet.encode({
      id: query.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3), questions: query.questions, answers: records,
    });
    server.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

function resolverWithHostsFile() {
  const looked: string[] = [];
  const fallback: Resolver = async (hostname) => {
    looked.push(hostname);
    if (hostname === 'gone.test') return ['127.0.0.1'];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  return { resolve: dnsResolver({ servers: [address], timeoutMs: 100, tries: 2, hostsFile, fallback }), looked };
}

describe('dnsResolver', () => {
  it('answers every address a name has, from DNS', async () => {
    const { resolve, looked } = resolverWithHostsFile();
    expect(await resolve('public.test')).toEqual(['93.184.216.34']);
    expect(await resolve('dual.test')).toEqual(['93.184.216.35', '2606:2800:220:1::35']);
    expect(looked).toEqual([]);
  });

  it('answers from the hosts file first, and localhost as the loopback, without asking DNS', async () => {
    const { resolve, looked } = resolverWithHostsFile();
    const before = asked.length;
    expect(await resolve('silent.test')).toEqual(['10.1.2.3']);
    expect(await resolve('pinned.test.')).toEqual(['10.1.2.3']);
    expect(await resolve('localhost')).toEqual(['127.0.0.1']);
    expect(await resolve('api.localhost')).toEqual(['127.0.0.1', '::1']);
    expect([asked.length - before, looked]).toEqual([0, []]);
  });

  it('asks the system (search domains, other name services) for a name DNS does not know', async () => {
    const { resolve, looked } = resolverWithHostsFile();
    expect(await resolve('gone.test')).toEqual(['127.0.0.1']);
    expect(looked).toEqual(['gone.test']);
  });

  it('gives up on a name server that never answers within its time, without tying up the system resolver', async () => {
    const { resolve, looked } = resolverWithHostsFile();
    // The name server never answers these: only the resolver's own time limit ends the lookup.
    await expect(resolve('quiet.silent.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(looked).toEqual([]);
    // Asked twice for each of A and AAAA: the second try after the first timed out.
    expect(asked.filter((question) => question.endsWith('quiet.silent.test'))).toHaveLength(4);
  });
});
