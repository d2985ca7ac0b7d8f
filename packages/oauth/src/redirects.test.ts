import { describe, expect, it } from 'vitest';
import { acceptableRedirect, redirectMatches } from './redirects.ts';

describe('redirect URIs', () => {
  it('may be registered as https, http on a loopback address, or an app\'s own scheme; never a fragment or a scheme that runs', () => {
    for (const uri of ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:3334/oauth/callback', 'http://localhost/cb', 'http://[::1]:8080/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback']) {
      expect(acceptableRedirect(uri), uri).toBe(true);
    }
    for (const uri of ['http://example.com/cb', 'http://10.0.0.1/cb', 'https://example.com/cb#x', 'javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'relative/path']) {
      expect(acceptableRedirect(uri), uri).toBe(false);
    }
  });

  it('match exactly, except that a loopback redirect may name another port (RFC 8252 7.3)', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1:3334/oauth/callback'];
    expect(redirectMatches(registered, 'https://app.example/cb')).toBe(true);
    expect(redirectMatches(registered, 'http://127.0.0.1:51000/oauth/callback')).toBe(true);
    expect(redirectMatches(registered, 'http://127.0.0.1/oauth/callback')).toBe(true);
    for (const uri of ['https://app.example/cb/', 'https://app.example:444/cb', 'https://app.example/cb?x=1', 'http://127.0.0.1:51000/other', 'http://localhost:3334/oauth/callback', 'https://127.0.0.1:3334/oauth/callback']) {
      expect(redirectMatches(registered, uri), uri).toBe(false);
    }
  });
});
