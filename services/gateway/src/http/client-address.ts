// Shared with the app, whose sign-in limits are per address too.
export { clientAddress } from '@vp/net';
