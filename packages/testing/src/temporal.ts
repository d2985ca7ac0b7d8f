import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import { temporalClient } from '@vp/temporal-client';
import { testSecrets } from './config.ts';
import './provided.ts';

/**
 * Connections to the run's Temporal server, for a test file's client and workers. The client
 * encrypts with the file's payload key (that of `testConfig`), or with `payloadKey`.
 */
export async function connectTemporal(options: { payloadKey?: Buffer } = {}) {
  const address = inject('temporalAddress');
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    client: temporalClient(connection, { temporal: { namespace: 'default', payloadKey: options.payloadKey ?? Buffer.from(testSecrets.TEMPORAL_PAYLOAD_KEY!, 'base64'), previousPayloadKey: null } }),
    nativeConnection,
    /** The run's workflow bundle, built once in the global setup. */
    workflowBundle: { codePath: inject('workflowBundlePath') },
    close: async () => {
      await connection.close();
      await nativeConnection.close();
    },
  };
}
