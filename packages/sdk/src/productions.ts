import { bodyOf, type ApiClient, type Schemas } from './client.ts';
import { paginate } from './pages.ts';
import type { paths } from './generated/api.ts';
import { waitForProduction, type WaitOptions } from './wait.ts';

export type Production = Schemas['Production'];
export type CreateProductionBody = Schemas['CreateProductionBody'];
export type ListProductionsQuery = NonNullable<paths['/v1/productions']['get']['parameters']['query']>;
export type ProductionDetail = paths['/v1/productions/{id}']['get']['responses'][200]['content']['application/json'];
export type Usage = Schemas['Usage'];

/** The calls on `/v1/productions`, each returning the resource or throwing an `ApiError`. */
export function productionsApi(api: ApiClient, options: { newExternalId?: () => string } = {}) {
  const newExternalId = options.newExternalId ?? (() => `sdk-${globalThis.crypto.randomUUID()}`);
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * Pushes a brief. Without an `externalId` one is made up, so that a create retried after a lost
     * answer replays the first instead of making a second production.
     */
    async create(body: CreateProductionBody): Promise<{ production: Production; replayed: boolean }> {
      const { data, response } = await api.POST('/v1/productions', { body: { ...body, externalId: body.externalId ?? newExternalId() } });
      return { production: data!.production, replayed: response.headers.get('idempotent-replayed') === 'true' };
    },
    /** One page, newest first. */
    list: (query: ListProductionsQuery = {}) => bodyOf(api.GET('/v1/productions', { params: { query } })),
    /** Every production matching the query, following `nextCursor` page after page. */
    iterate: (query: Omit<ListProductionsQuery, 'cursor'> = {}) =>
      paginate(async (cursor) => {
        const page = await bodyOf(api.GET('/v1/productions', { params: { query: { ...query, cursor } } }));
        return { items: page.productions, nextCursor: page.nextCursor };
      }),
    /** The production with its timeline, queue status and pitch as markdown. */
    get: (id: string): Promise<ProductionDetail> => bodyOf(api.GET('/v1/productions/{id}', path(id))),
    greenlight: async (id: string, body: Schemas['GreenlightBody'] = {}) =>
      (await bodyOf(api.POST('/v1/productions/{id}/greenlight', { ...path(id), body }))).production,
    comment: async (id: string, comment: string, pitchVersion?: number) =>
      (await bodyOf(api.POST('/v1/productions/{id}/comments', { ...path(id), body: { comment, ...(pitchVersion ? { pitchVersion } : {}) } }))).production,
    decline: async (id: string, reason?: string) =>
      (await bodyOf(api.POST('/v1/productions/{id}/decline', { ...path(id), body: reason ? { reason } : {} }))).production,
    cancel: async (id: string, reason?: string) =>
      (await bodyOf(api.POST('/v1/productions/{id}/cancel', { ...path(id), body: reason ? { reason } : {} }))).production,
    usage: async (query: { workspaceId?: string } = {}): Promise<Usage> =>
      (await bodyOf(api.GET('/v1/productions/usage', { params: { query } }))).usage,
    /** Reads the production until `until` holds (by default: it has ended); see `waitForProduction`. */
    waitFor: (id: string, options: WaitOptions = {}) => waitForProduction((productionId) => bodyOf(api.GET('/v1/productions/{id}', path(productionId))), id, options),
  };
}
