import { parseArgs } from 'node:util';
import type { Command, Options } from './command.ts';
import { accountCommands } from './commands/account.ts';
import { produceCommand } from './commands/produce.ts';
import { productionCommands } from './commands/productions.ts';
import { renderCommand } from './commands/render.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import { createContext } from './context.ts';
import { reportError } from './errors.ts';
import { EXIT, line, UsageError, type Io } from './io.ts';

const GLOBAL: Options = {
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const COMMANDS: Command[] = [...accountCommands, produceCommand, ...productionCommands, renderCommand, webhooksCommand];

/** `vp <command> [options]`: runs one command and answers its exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(io, rest[0]);
    return name ? EXIT.done : EXIT.usage;
  }
  const json = rest.includes('--json');
  try {
    if (!command) throw new UsageError(`Unknown command "${name}"`);
    const { values, positionals } = parseArgs({ args: rest, options: { ...GLOBAL, ...command.options }, allowPositionals: true, strict: true });
    if (values.help) {
      help(io, command.name);
      return EXIT.done;
    }
    const context = createContext(io, { baseUrl: values['base-url'] as string | undefined, json: values.json as boolean | undefined });
    return (await command.run(context, values, positionals)) ?? EXIT.done;
  } catch (error) {
    return reportError(io, error, json);
  }
}

function help(io: Io, name?: string) {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command) {
    line(io.stdout, `Usage: vp ${command.usage}\n\n${command.summary}`);
    return;
  }
  line(io.stdout, 'vp: turn what you shipped into a video.\n\nUsage: vp <command> [options]\n');
  for (const each of COMMANDS) line(io.stdout, `  ${each.name.padEnd(11)} ${each.summary.split('\n')[0]}`);
  line(io.stdout, '\n`vp help COMMAND` shows its options. Everywhere: --base-url URL (or VP_BASE_URL), --json for scripts, -h/--help.');
  line(io.stdout, 'With VP_API_KEY set, vp uses that key and never prompts.');
  line(io.stdout, 'Exit codes: 0 done, 1 failed, 2 wrong usage, 3 refused by the service.');
}
