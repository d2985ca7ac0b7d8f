import { Connection, type ConnectionLike } from '@temporalio/client';
import { API_KEY_PREFIX } from '@vp/contracts';
import proto from '@temporalio/proto';

// A CommonJS package: Node's ESM import sees only its default export.
const api = proto.temporal.api;

/** What an operator reading the Temporal server would see of one workflow run, as the server keeps it. */
export type RawRun = { workflowId: string; runId: string; type: string; parts: { where: string; bytes: Buffer }[] };

/** A readable string found where it must not be. */
export type Finding = { workflowId: string; type: string; where: string; needle: string };

/**
 * Every workflow run the server holds in `namespace`, open or closed, read raw: nothing goes
 * through a data converter or codec, so what is encrypted stays encrypted. For each run: its
 * visibility record (memo, search attributes), its description (user metadata, pending
 * activities and their last failures) and every page of its history, each as protobuf bytes.
 */
export async function* rawRuns(connection: ConnectionLike, namespace = 'default'): AsyncGenerator<RawRun> {
  const service = connection.workflowService;
  let listToken: Uint8Array | undefined;
  do {
    const page = await service.listWorkflowExecutions({ namespace, pageSize: 500, nextPageToken: listToken, query: '' });
    for (const info of page.executions) {
      const execution = { workflowId: info.execution!.workflowId!, runId: info.execution!.runId! };
      const parts = [{ where: 'visibility record', bytes: Buffer.from(api.workflow.v1.WorkflowExecutionInfo.encode(info).finish()) }];
      const described = await service.describeWorkflowExecution({ namespace, execution }).catch(() => null);
      if (described) parts.push({ where: 'description', bytes: Buffer.from(api.workflowservice.v1.DescribeWorkflowExecutionResponse.encode(described).finish()) });
      let historyToken: Uint8Array | undefined;
      do {
        const history = await service.getWorkflowExecutionHistory({ namespace, execution, nextPageToken: historyToken, maximumPageSize: 1000 });
        parts.push({ where: 'history', bytes: Buffer.from(api.history.v1.History.encode(history.history ?? {}).finish()) });
        historyToken = history.nextPageToken?.length ? history.nextPageToken : undefined;
      } while (historyToken);
      yield { ...execution, type: info.type?.name ?? '', parts };
    }
    listToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (listToken);
}

/** Where any of `needles` appears, as UTF-8 bytes, in the runs' raw bytes. */
export async function findPlaintext(runs: AsyncIterable<RawRun>, needles: readonly string[]): Promise<{ runs: number; byType: Record<string, number>; bytes: number; findings: Finding[] }> {
  const sought = needles.filter(Boolean).map((needle) => ({ needle, bytes: Buffer.from(needle, 'utf8') }));
  const findings: Finding[] = [];
  let count = 0;
  const byType: Record<string, number> = {};
  let bytes = 0;
  for await (const run of runs) {
    count++;
    byType[run.type] = (byType[run.type] ?? 0) + 1;
    for (const part of run.parts) {
      bytes += part.bytes.length;
      for (const { needle, bytes: soughtBytes } of sought) {
        if (part.bytes.includes(soughtBytes)) findings.push({ workflowId: run.workflowId, type: run.type, where: part.where, needle });
      }
    }
  }
  return { runs: count, byType, bytes, findings };
}

/**
 * What is someone's capability or person in any test's workflow, whichever test made it: the
 * tests' e-mail addresses, project edit and share addresses, API keys. Each long enough that
 * encrypted bytes cannot spell it by chance.
 */
export const ANY_TESTS_PLAINTEXT = ['@example.test', '@example.com', '/projects/', '/share/', API_KEY_PREFIX] as const;

/**
 * Issue 40's history scan over every run the whole test run made, once its last file has ended:
 * a line that says what was read, and the findings.
 */
export async function scanEveryRun(address: string): Promise<{ summary: string; findings: Finding[] }> {
  const connection = await Connection.connect({ address });
  try {
    const scan = await findPlaintext(rawRuns(connection), ANY_TESTS_PLAINTEXT);
    const summary = `Temporal history scan: ${scan.runs} runs, ${(scan.bytes / 2 ** 20).toFixed(1)} MiB read raw, ${scan.findings.length} plaintext findings`;
    return { summary, findings: scan.findings };
  } finally {
    await connection.close();
  }
}
