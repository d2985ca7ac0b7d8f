export * from './create.ts';
export * from './read-model.ts';
export * from './steps.ts';
export * from './usage.ts';
export * from './queries.ts';
export * from './visible.ts';
