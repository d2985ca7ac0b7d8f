import { checkPublicHost, HostNotFoundError, UnsafeAddressError, type Resolver } from '@vp/net';

export type UrlCheck = { ok: true } | { ok: false; reason: 'scheme' | 'not_public' | 'not_found'; message: string };

/** The schemes an endpoint may use: https, and http too under the development switch. */
const schemesFor = (allowPrivate: boolean) => (allowPrivate ? ['https:', 'http:'] : ['https:']);

/** Whether a url's scheme, read from the parsed url (`HTTPS://` is https), is one an endpoint may use. */
export function usesAllowedScheme(url: string, allowPrivate: boolean): boolean {
  try {
    return schemesFor(allowPrivate).includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

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
  if (!schemesFor(options.allowPrivate).includes(parsed.protocol)) {
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
