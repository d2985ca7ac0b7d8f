import { describe, expect } from 'vitest';
import { test } from '@vp/testing';
import { createTestGateway, json } from './testing/gateway.ts';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database);
  onCleanup(gateway.close);
  return gateway;
});

describe('the published interface (spec: Versioning)', () => {
  it('is OpenAPI 3.1, version 1.0.0, generated from the zod schemas the routes validate with', async ({ gateway }) => {
    const doc = await json(await gateway.app.request('/v1/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/productions', '/v1/productions/{id}', '/v1/productions/{id}/greenlight']));
    // The brief's bounds come from the same schema that validates requests.
    const brief = doc.components.schemas.Brief;
    expect(brief.properties.intent).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
    expect(brief.properties.media).toMatchObject({ maxItems: 20 });
    expect(doc.components.schemas.Error.properties).toHaveProperty('issues');
  });

  it('describes every route the gateway serves, its pages too: what reads the document (the fuzzer) reaches each', async ({ gateway }) => {
    const doc = await json(await gateway.app.request('/v1/openapi.json'));
    const documented = new Set(Object.entries<Record<string, unknown>>(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)));
    // The document itself, the page that reads it, and the load balancer's probes.
    const UNDOCUMENTED = [/^GET \/v1\/openapi\.json$/, /^GET \/docs(\/api-reference-[\d.]+\.js)?$/, /^GET \/(healthz|readyz)$/];
    const served = [...new Set(gateway.app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`))];
    expect(served.filter((route) => !documented.has(route) && !UNDOCUMENTED.some((pattern) => pattern.test(route)))).toEqual([]);
    expect(served.length).toBeGreaterThan(30);
  });

  it('has an interactive reference page at /docs', async ({ gateway }) => {
    const res = await gateway.app.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/v1/openapi.json');
  });
});
