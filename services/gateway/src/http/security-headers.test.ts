import { describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { createTestGateway, withKey } from '../testing/gateway.ts';

describe('every response', () => {
  test('is taken as the type it is sent as, passes no address of ours on to another site, and is not framed', async ({ database }) => {
    const gateway = await createTestGateway(database);
    try {
      const answers = await Promise.all([
        gateway.app.request('/healthz'),
        gateway.app.request('/v1/openapi.json'),
        gateway.app.request('/docs'),
        gateway.app.request('/v1/productions'), // 401
        gateway.app.request('/nowhere'), // 404
        gateway.app.request('/go/not-a-token', { headers: { accept: 'text/html' } }), // a link page
        gateway.app.request('/healthz', { method: 'DELETE' }), // 405
      ]);
      for (const answer of answers) {
        expect(answer.headers.get('x-content-type-options'), `${answer.status}`).toBe('nosniff');
        expect(answer.headers.get('referrer-policy'), `${answer.status}`).toBe('same-origin');
        expect(answer.headers.get('x-frame-options'), `${answer.status}`).toBe('DENY');
        expect(answer.headers.get('content-security-policy'), `${answer.status}`).toContain("frame-ancestors 'none'");
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 404, 404, 405]);
    } finally {
      await gateway.close();
    }
  });

  test('from the API or a link is kept by no cache', async ({ database }) => {
    const gateway = await createTestGateway(database);
    try {
      const { apiKey } = await seedAccount(database.db);
      const answers = await Promise.all([
        gateway.app.request('/v1/productions', withKey(apiKey)),
        gateway.app.request('/v1/webhooks', withKey(apiKey)),
        gateway.app.request('/v1/productions'), // 401
        gateway.app.request('/production-links/not-a-token'), // 404
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 404]);
      for (const answer of answers) expect(answer.headers.get('cache-control'), `${answer.url} ${answer.status}`).toBe('no-store');
    } finally {
      await gateway.close();
    }
  });
});
