export * from './accounts.ts';
export * from './keys.ts';
