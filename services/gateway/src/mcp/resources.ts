import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DomainError, type Caller } from '@vp/contracts';
import { productionDetail, productionsOf, type ProductionDeps } from '@vp/productions';

/** Each production the account can see as `production://{id}`: its pitch as markdown (the production as JSON until a pitch exists). */
export function registerProductionResources(server: McpServer, deps: ProductionDeps, caller: Caller) {
  const template = new ResourceTemplate('production://{id}', {
    list: async () => {
      const { productions } = await productionsOf(deps, caller, { limit: 50 });
      return { resources: productions.map((p) => ({ uri: `production://${p.id}`, name: p.pitch?.title ?? p.brief.intent.slice(0, 80), mimeType: p.pitch ? 'text/markdown' : 'application/json' })) };
    },
  });
  server.registerResource('production', template, {
    title: 'A production', description: 'A production\'s pitch as markdown; the production as JSON until its pitch is written.',
  }, async (uri, variables) => {
    const id = productionIdOf(`production://${String(variables.id)}`);
    if (!id) throw new DomainError('not_found', 'Production not found.');
    const detail = await productionDetail(deps, caller, id);
    return {
      contents: [detail.pitchMarkdown
        ? { uri: uri.href, mimeType: 'text/markdown', text: detail.pitchMarkdown }
        : { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ production: detail.production }) }],
    };
  });
}

/** The production id a `production://{id}` address names, or null for any other address. */
export function productionIdOf(uri: string): string | null {
  return /^production:\/\/([0-9a-f-]{36})$/i.exec(uri)?.[1] ?? null;
}
