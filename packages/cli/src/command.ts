import type { ParseArgsConfig } from 'node:util';
import type { Context } from './context.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One `vp` command: its options (parsed by node:util parseArgs, strictly) and what it does. */
export type Command = {
  name: string;
  usage: string;
  summary: string;
  options?: Options;
  /** Does the work; the exit code (0 when nothing is returned). */
  run(context: Context, values: Values, positionals: string[]): Promise<number | void>;
};

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};
export const strs = (values: Values, name: string): string[] => {
  const value = values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};
