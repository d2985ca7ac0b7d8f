export * from './auth.ts';
export * from './brief.ts';
export * from './errors.ts';
export * from './lists.ts';
export * from './pitch.ts';
export * from './production.ts';
export * from './temporal.ts';
