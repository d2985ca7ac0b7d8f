import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generateTypes } from './types.ts';

describe("the SDK's generated types", () => {
  it('are what openapi-typescript makes of the document the gateway builds now (run `pnpm --filter @vp/sdk generate` when this fails)', async () => {
    const committed = await readFile(GENERATED_TYPES, 'utf8');
    expect(committed === (await generateTypes()), 'packages/sdk/src/generated/api.ts is behind the gateway\'s document: run `pnpm --filter @vp/sdk generate`').toBe(true);
  });
});
