import { parseArgs } from 'node:util';
import type { Config } from '@vp/config';
import type { Db } from '@vp/db';
import { CliError, usageError } from './cli-error.ts';
import type { Command, Option } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import type { Output } from './output.ts';

/** Finds the command named by the first words of argv (`key create`, `bootstrap`). */
function findCommand(argv: string[]): { command: Command<unknown>; rest: string[] } | null {
  for (const command of COMMANDS as Command<unknown>[]) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(words.length) };
  }
  return null;
}

function optionHelp(name: string, option: Option): string {
  const flag = `--${name}${option.value ? ` ${option.value}` : ''}`;
  return `    ${flag.padEnd(22)} ${option.description}${option.required ? ' (required)' : ''}`;
}

export function usage(command?: Command<unknown>): string {
  if (command) {
    return [
      `Usage: pnpm admin ${command.name} [options]`,
      '',
      `  ${command.summary}`,
      '',
      '  Options:',
      ...Object.entries(command.options).map(([name, option]) => optionHelp(name, option)),
      optionHelp('json', { type: 'boolean', description: 'print the result as one JSON line' }),
    ].join('\n');
  }
  return [
    'Usage: pnpm admin <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`),
    '',
    'Run `pnpm admin <command> --help` for its options. Exit codes: 0 done, 1 failed, 2 wrong usage.',
  ].join('\n');
}

export type Parsed = { kind: 'help'; text: string } | { kind: 'run'; command: Command<unknown>; args: unknown; json: boolean };

/** Parses argv completely (before any database work), throwing a usage error for anything wrong. */
export function parseCommandLine(argv: string[]): Parsed {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { kind: 'help', text: usage() };
  const found = findCommand(argv);
  if (!found) throw usageError(`unknown command '${argv.filter((a) => !a.startsWith('-')).slice(0, 2).join(' ')}'\n\n${usage()}`);
  const { command, rest } = found;
  const options = Object.fromEntries(Object.entries(command.options).map(([name, o]) => [name, { type: o.type }]));
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: { ...options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw usageError(`${(error as Error).message}\n\n${usage(command)}`);
  }
  if (values.help) return { kind: 'help', text: usage(command) };
  for (const [name, option] of Object.entries(command.options)) {
    if (option.required && values[name] === undefined) throw usageError(`missing --${name}\n\n${usage(command)}`);
  }
  return { kind: 'run', command, args: command.parse(values), json: values.json === true };
}

/** Runs a command line; returns the exit code. Expected errors print their message only. */
export async function runCli(
  argv: string[],
  io: { db: () => Db; config: () => Config; stdout: (line: string) => void; stderr: (line: string) => void },
): Promise<number> {
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      io.stdout(parsed.text);
      return 0;
    }
    const output: Output = { json: parsed.json, line: io.stdout };
    await parsed.command.run(io.db(), parsed.args, output, io.config);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`admin: ${error.message}`);
      return error.exitCode;
    }
    io.stderr(`admin: unexpected failure: ${(error as Error).message}`);
    return 1;
  }
}
