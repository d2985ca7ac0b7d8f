import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GENERATED_TYPES, generateTypes } from './types.ts';

// `pnpm --filter @vp/sdk generate`: rewrites the SDK's types from the gateway's document.
await writeFile(GENERATED_TYPES, await generateTypes());
console.log(`wrote ${fileURLToPath(GENERATED_TYPES)}`);
