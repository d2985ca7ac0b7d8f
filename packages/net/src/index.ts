export { classifyAddress, isPublicAddress, type AddressVerdict } from './address.ts';
export { checkPublicHost, systemResolver, type CheckHostOptions, type Resolver } from './resolve.ts';
export { fetchPublic, type FetchPublicOptions, type PublicResponse } from './fetch.ts';
export {
  ConnectionError, FetchError, FetchTimeoutError, HostNotFoundError, ResponseTooLargeError,
  UnsafeAddressError, UnsupportedUrlError,
} from './errors.ts';
export { formatBytes, formatDuration } from './format.ts';
export { clientAddress } from './client-address.ts';
export { closeGracefully } from './close-server.ts';
