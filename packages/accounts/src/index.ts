export * from './accounts.ts';
export * from './keys.ts';
export * from './authenticate.ts';
