import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '@vp/contracts/temporal';

type Service = {
  image?: string; build?: string; command?: string[]; restart?: string; ports?: string[];
  environment?: Record<string, string | number | null>; healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
};
const compose = parse(readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
/** Services that do their job and exit (migrations, search attributes): the others run for good. */
const oneShot = (name: string) => services.some(([, other]) => other.depends_on?.[name]?.condition === 'service_completed_successfully');
const longRunning = services.filter(([name]) => !oneShot(name));

describe('docker-compose.yml', () => {
  it('restarts every long-running service and checks its health', () => {
    expect(longRunning.map(([name]) => name).sort()).toEqual(['app', 'gateway', 'postgres', 'render-worker', 'temporal', 'temporal-postgres', 'temporal-ui', 'worker']);
    for (const [name, service] of longRunning) {
      expect(service.restart, name).toMatch(/^(always|unless-stopped|on-failure)/);
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(0);
    }
    // The workers' checks read the heartbeat file they are told to write.
    for (const name of ['worker', 'render-worker']) {
      const { environment, healthcheck } = compose.services[name]!;
      expect(healthcheck!.test!.join(' ')).toContain(String(environment!.HEALTH_FILE));
    }
    for (const name of ['gateway', 'app']) expect(compose.services[name]!.healthcheck!.test!.join(' ')).toContain('/healthz');
  });

  it('publishes no Temporal gRPC port, and the Web UI only on loopback, read-only', () => {
    const published = services.flatMap(([name, service]) => (service.ports ?? []).map((port) => [name, String(port)] as const));
    expect(published.filter(([, port]) => /(^|:)7233(:|$)/.test(port))).toEqual([]);
    const ui = compose.services['temporal-ui']!;
    expect(ui.ports!.length).toBeGreaterThan(0);
    for (const port of ui.ports!) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(ui.environment).toMatchObject({ TEMPORAL_DISABLE_WRITE_ACTIONS: 'true' });
    // Everything else published is the gateway (the API itself) and the app (its pages).
    expect(published.filter(([name]) => name !== 'temporal-ui').map(([name]) => name).sort()).toEqual(['app', 'gateway']);
    for (const name of ['gateway', 'app']) expect(compose.services[name]!.environment).toMatchObject({ HOST: '0.0.0.0' });
  });

  it('registers exactly the search attributes of SEARCH_ATTRIBUTES before the services start', () => {
    const command = compose.services['temporal-search-attributes']!.command!;
    const registered = Object.fromEntries(command.flatMap((arg, i) => (arg === '--name' ? [[command[i + 1], command[i + 3]]] : [])));
    expect(registered).toEqual(SEARCH_ATTRIBUTES);
    for (const name of ['gateway', 'app', 'worker', 'render-worker']) {
      expect(compose.services[name]!.depends_on).toMatchObject({ 'temporal-search-attributes': { condition: 'service_completed_successfully' } });
    }
  });
});
