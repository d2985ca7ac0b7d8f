/** Hosts of a loopback redirect (RFC 8252 7.3): a native app listens on a port it picks each time. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes a redirect may never use: they would run or read something in the browser itself. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/** Whether a client may register this redirect URI: https, http on loopback, or an app's own scheme. No fragment. */
export function acceptableRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || uri.includes('#') || FORBIDDEN_SCHEMES.has(url.protocol)) return false;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return url.protocol === 'https:' || /^[a-z][a-z0-9+.-]*:$/.test(url.protocol);
}

/**
 * Whether `requested` is one of the client's registered redirect URIs: the same string, except
 * that a loopback http redirect may name another port (RFC 8252 7.3); its path and query must match.
 */
export function redirectMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const wanted = loopbackWithoutPort(requested);
  return wanted !== null && registered.some((uri) => loopbackWithoutPort(uri) === wanted);
}

function loopbackWithoutPort(uri: string): string | null {
  try {
    const url = new URL(uri);
    if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return null;
    url.port = '';
    return url.href;
  } catch {
    return null;
  }
}
