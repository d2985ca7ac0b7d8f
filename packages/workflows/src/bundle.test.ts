import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import * as workflows from './index.ts';
import { workflowsPath } from './path.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

describe('workflow code (ARCHITECTURE rule 4)', () => {
  it('bundles for the Temporal sandbox with every workflow the workers register, and no schema library', async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath, logger: quiet });
    for (const name of Object.keys(workflows)) expect(code).toContain(name);
    // Every workflow run evaluates the bundle's modules afresh: zod's schemas (the contracts
    // package's root) cost each one ~10 ms of CPU. Workflow files take values from
    // @vp/contracts/temporal and /webhook-attempt, and only types from the root.
    expect(code).not.toMatch(/node_modules\/(\.pnpm\/)?zod/);
  }, 60_000);

  it('a Node built-in imported by workflow code fails the bundle, not a worker', async () => {
    // Beside the real workflows, so everything but the offending import resolves.
    const dir = await mkdtemp(join(root, 'packages/workflows/.bad-workflow-'));
    try {
      const bad = join(dir, 'index.ts');
      await writeFile(bad, "import { readFileSync } from 'node:fs';\nexport async function bad() { return readFileSync('/etc/hostname', 'utf8'); }\n");
      const errors: string[] = [];
      await expect(bundleWorkflowCode({ workflowsPath: bad, logger: { ...quiet, error: (message) => void errors.push(message) } })).rejects.toThrow();
      expect(errors.join('\n')).toMatch(/ERROR in node:fs/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('lint lets workflow files import only the workflow API, the zod-free contracts and their own package', async () => {
    const eslint = new ESLint({ cwd: root });
    const source = [
      "import { readFile } from 'node:fs/promises';",
      "import crypto from 'crypto';",
      "import { PrismaClient } from '@prisma/client';",
      "import { createDb } from '@vp/db';",
      "import { Client } from '@temporalio/client';",
      "import { z } from 'zod';",
      "import { createProduction } from '@vp/productions';",
      "import { Stage } from '@vp/contracts';",
      "import { keepRunning } from '../../activities/src/keep-running.ts';",
      // Allowed: the workflow API, the zod-free contracts, types from the rest, files of the package.
      "import { sleep } from '@temporalio/workflow';",
      "import { workflowIds } from '@vp/contracts/temporal';",
      "import type { Phase } from '@vp/contracts';",
      "import { RENDER_TRIES } from './definitions.ts';",
      "import { settle } from '../production/steps.ts';",
      'export const used = [readFile, crypto, PrismaClient, createDb, Client, z, createProduction, Stage, keepRunning, sleep, workflowIds, RENDER_TRIES, settle];',
      'export type Used = Phase;',
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: join(root, 'packages/workflows/src/production/offender.ts') });
    const restricted = result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
    expect(restricted.map((m) => m.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The same imports are fine outside workflow code.
    const [elsewhere] = await eslint.lintText(source, { filePath: join(root, 'packages/activities/src/fine.ts') });
    expect(elsewhere!.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([]);
  });
});
