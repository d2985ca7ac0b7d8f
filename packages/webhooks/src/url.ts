import { checkPublicHost, HostNotFoundError, UnsafeAddressError, type Resolver } from '@vp/net';

export type UrlCheck = { ok: true } | { ok: false; reason: 'scheme' | 'not_public' | 'not_found'; message: string };

/**
 * Endpoint URLs are https and every address their host resolves to is public. The
 * development switch (`allowPrivateUrls`) also accepts http and private or loopback hosts.
 */
export async function checkEndpointUrl(url: string, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<UrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'scheme', message: 'The url is not a valid URL.' };
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    return { ok: false, reason: 'scheme', message: `The url must use https (got ${parsed.protocol.slice(0, -1)}).` };
  }
  try {
    await checkPublicHost(parsed.hostname, { allowPrivate: options.allowPrivate, resolve: options.resolve, url });
    return { ok: true };
  } catch (error) {
    if (error instanceof UnsafeAddressError) return { ok: false, reason: 'not_public', message: `The url must resolve to public addresses only: ${error.message}.` };
    if (error instanceof HostNotFoundError) return { ok: false, reason: 'not_found', message: `The url's host ${parsed.hostname} could not be found.` };
    throw error;
  }
}
