/**
 * bench/chaos: productions through the API to delivery while the worker and the render worker
 * are SIGKILLed at random moments and restarted. Goals: every production ends; charges =
 * delivered + refunded; 0 double charges; 0 events sent again once their delivery was recorded
 * (a send whose answer a kill lost is sent again, as at-least-once delivery must); 0 workflows
 * stuck. The CI runs 10 productions (bench/chaos/chaos.test.ts).
 *
 *   pnpm tsx bench/chaos/run.ts [--productions 100] [--concurrency 6] [--kill-every 12000-30000] [--seed 40]
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { SECRET_NAMES } from '@vp/config';
import { failureConverterPath } from '@vp/temporal-client';
import { workflowsPath } from '@vp/workflows/path';
import { startBenchStack } from '../lib/stack.ts';
import { goal } from '../lib/stats.ts';
import { runChaos } from './chaos.ts';
import { formatFigures, verdicts } from './figures.ts';

const { values } = parseArgs({ options: {
  productions: { type: 'string', default: '100' }, concurrency: { type: 'string', default: '6' },
  'kill-every': { type: 'string', default: '12000-30000' }, seed: { type: 'string', default: '40' },
} });
const [min, max] = values['kill-every'].split('-').map(Number) as [number, number];

Runtime.install({ logger: new DefaultLogger('WARN') });
const stack = await startBenchStack();
try {
  const { code } = await bundleWorkflowCode({ workflowsPath, failureConverterPath, logger: new DefaultLogger('WARN') });
  const workflowBundlePath = join(stack.dir, 'workflows.js');
  await writeFile(workflowBundlePath, code);
  const started = Date.now();
  const figures = await runChaos({
    productions: Number(values.productions), concurrency: Number(values.concurrency), killEveryMs: [min, max ?? min], seed: Number(values.seed),
    databaseUrl: stack.databaseUrl, temporalAddress: stack.temporalAddress, workflowBundlePath, dataDir: stack.dir, taskQueuePrefix: 'chaos',
    // Random, as a deployment's are.
    secrets: Object.fromEntries(SECRET_NAMES.map((name) => [name, randomBytes(32).toString('base64')])),
    log: (line) => console.log(`  [${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`),
  });
  console.log([
    '',
    `bench/chaos — ${values.productions} productions, ${values.concurrency} at once, a SIGKILL every ${values['kill-every']} ms, seed ${values.seed}`,
    '',
    formatFigures(figures),
    '',
    ...verdicts(figures).map(([label, holds]) => goal(label, holds)),
  ].join('\n'));
} finally {
  await stack.stop();
}
