import { describe, expect } from 'vitest';
import { test } from '@vp/testing';
import { createTestGateway } from '../test-app.ts';

describe('every response', () => {
  test('is taken as the type it is sent as, and passes no address of ours on to another site', async ({ database }) => {
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
        expect(answer.headers.get('referrer-policy'), `${answer.status}`).toBe('no-referrer');
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 404, 404, 405]);
    } finally {
      await gateway.close();
    }
  });
});
