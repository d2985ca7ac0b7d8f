export * from './accounts.ts';
export * from './keys.ts';
export * from './authenticate.ts';
export * from './actors.ts';
