import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import './provided.ts';

/** Connections to the run's Temporal server, for a test file's client and workers. */
export async function connectTemporal() {
  const address = inject('temporalAddress');
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    client: new Client({ connection }),
    nativeConnection,
    /** The run's workflow bundle, built once in the global setup. */
    workflowBundle: { codePath: inject('workflowBundlePath') },
    close: async () => {
      await connection.close();
      await nativeConnection.close();
    },
  };
}
