import { Connection } from '@temporalio/client';

/**
 * Whether the dev server at `address` serves: its frontend answers a real call, the namespace
 * exists, and every search attribute asked for is registered in it. Throws what it met otherwise.
 */
export async function temporalReady(address: string, namespace: string, searchAttributes: readonly string[]): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: '2 seconds' });
  try {
    const deadline = () => new Date(Date.now() + 2000);
    await connection.withDeadline(deadline(), () => connection.workflowService.getSystemInfo({}));
    await connection.withDeadline(deadline(), () => connection.workflowService.describeNamespace({ namespace }));
    if (!searchAttributes.length) return;
    const { customAttributes } = await connection.withDeadline(deadline(), () => connection.operatorService.listSearchAttributes({ namespace }));
    const missing = searchAttributes.filter((name) => !(name in (customAttributes ?? {})));
    if (missing.length) throw new Error(`search attributes not registered yet: ${missing.join(', ')}`);
  } finally {
    await connection.close();
  }
}
