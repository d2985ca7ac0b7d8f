import type { Config } from '@vp/config';
import type { Db } from '@vp/db';
import type { Output } from './output.ts';

export type Option = {
  type: 'string' | 'boolean';
  description: string;
  /** The value's placeholder in help, e.g. `E` for `--email E`. */
  value?: string;
  required?: boolean;
};

/** Option values as `util.parseArgs` returns them. */
export type Values = Record<string, string | boolean | undefined>;

/**
 * One `admin <group> <verb>` command. `parse` turns option values into arguments (throwing a usage
 * error before anything touches the database); `run` does the work. Tests call `run` directly.
 */
export interface Command<Args> {
  name: string;
  summary: string;
  options: Record<string, Option>;
  parse(values: Values): Args;
  /** `config`: the services' configuration, for the commands that need their settings (keys). */
  run(db: Db, args: Args, output: Output, config: () => Config): Promise<void>;
}

export function defineCommand<Args>(command: Command<Args>): Command<Args> {
  return command;
}
