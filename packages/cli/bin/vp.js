#!/usr/bin/env node
// The CLI is written in TypeScript and run through tsx's loader, as the rest of the workspace is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  // The CLI runs on a user's machine, not in the service: its environment is the user's.
  // eslint-disable-next-line no-restricted-syntax
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
