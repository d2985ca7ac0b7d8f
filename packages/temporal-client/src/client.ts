import { Client, type ConnectionLike } from '@temporalio/client';
import { temporalDataConverter, type PayloadKeys } from './data-converter.ts';

/** A Temporal client of the service: its namespace, and payloads encrypted as every process of it encrypts them. */
export function temporalClient(connection: ConnectionLike, config: { temporal: { namespace: string } & PayloadKeys }): Client {
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: temporalDataConverter(config.temporal) });
}
