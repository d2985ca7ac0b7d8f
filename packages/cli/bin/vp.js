#!/usr/bin/env node
// The CLI is written in TypeScript and run through tsx's loader, as the rest of the workspace is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
