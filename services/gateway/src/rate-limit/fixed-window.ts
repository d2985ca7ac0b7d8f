// The fixed one-minute windows are shared with the app's sign-in limits: one implementation, in @vp/db.
export { createRateLimiter, windowAt, type RateLimiter } from '@vp/db';
