import { bodyOf, type ApiClient, type Schemas } from './client.ts';
import { paginate } from './pages.ts';

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** The calls on `/v1/webhooks`, each returning the resource or throwing an `ApiError`. */
export function webhooksApi(api: ApiClient) {
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    list: (query: { workspaceId?: string; limit?: number; cursor?: string } = {}) => bodyOf(api.GET('/v1/webhooks', { params: { query } })),
    /** Every endpoint, following `nextCursor`. */
    iterate: (query: { workspaceId?: string; limit?: number } = {}) =>
      paginate(async (cursor) => {
        const page = await bodyOf(api.GET('/v1/webhooks', { params: { query: { ...query, cursor } } }));
        return { items: page.endpoints, nextCursor: page.nextCursor };
      }),
    /** Creates an endpoint; its `secret` (`whsec_…`) is in this answer only. */
    create: async (body: Schemas['CreateWebhookBody']) => (await bodyOf(api.POST('/v1/webhooks', { body }))).endpoint,
    get: async (id: string) => (await bodyOf(api.GET('/v1/webhooks/{id}', path(id)))).endpoint,
    update: async (id: string, body: Schemas['UpdateWebhookBody']) => (await bodyOf(api.PATCH('/v1/webhooks/{id}', { ...path(id), body }))).endpoint,
    remove: async (id: string): Promise<void> => {
      await api.DELETE('/v1/webhooks/{id}', path(id));
    },
    rollSecret: async (id: string) => (await bodyOf(api.POST('/v1/webhooks/{id}/roll-secret', path(id)))).endpoint,
    /** Queues a signed `ping` to the endpoint. */
    test: async (id: string) => (await bodyOf(api.POST('/v1/webhooks/{id}/test', path(id)))).delivery,
    deliveries: (id: string, query: { limit?: number; cursor?: string } = {}) =>
      bodyOf(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
    /** Every delivery to the endpoint, newest first, following `nextCursor`. */
    iterateDeliveries: (id: string, query: { limit?: number } = {}) =>
      paginate(async (cursor) => {
        const page = await bodyOf(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { ...query, cursor } } }));
        return { items: page.deliveries, nextCursor: page.nextCursor };
      }),
    redeliver: async (id: string, deliveryId: string) =>
      (await bodyOf(api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } }))).delivery,
  };
}
