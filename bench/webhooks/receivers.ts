/**
 * bench/webhooks' receivers, in a process of their own as a customer's would be, so their
 * side of each request (the TLS handshake, reading the body) is not done on the event loop
 * of the worker being measured. Reports each arrival to the parent: the production's id and when.
 */
import { startReceiver } from '@vp/webhooks/testing';

export type ReceiversMessage = { ready: { urls: string[]; ca: string } } | { arrived: { productionId: string; at: number } };

const send = (message: ReceiversMessage) => process.send!(message);
const receivers = await Promise.all(Array.from({ length: Number(process.argv[2]) }, () => startReceiver((request) => {
  const productionId = (JSON.parse(request.body) as { data: { production?: { id: string } } }).data.production?.id ?? '';
  send({ arrived: { productionId, at: request.at } });
  return { status: 204 };
})));
send({ ready: { urls: receivers.map((r) => r.url), ca: receivers[0]!.ca } });
process.on('disconnect', () => process.exit(0));
