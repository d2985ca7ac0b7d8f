/** DECISIONS (MCP): access tokens live 1 hour, refresh tokens 30 days; codes are for the redirect only. */
export const ACCESS_TOKEN_MS = 60 * 60_000;
export const REFRESH_TOKEN_MS = 30 * 24 * 60 * 60_000;
export const CODE_MS = 10 * 60_000;
/** A Client ID Metadata Document is fetched again when older than this. */
export const CLIENT_DOCUMENT_MS = 24 * 60 * 60_000;

/** Prefixes that tell our tokens apart from API keys (`svc_live_`) at a glance and in a log scanner. */
export const ACCESS_TOKEN_PREFIX = 'vp_mcp_at_';
export const REFRESH_TOKEN_PREFIX = 'vp_mcp_rt_';

/** The resource (RFC 8707) every token is bound to: the MCP server's URL. */
export const mcpResource = (baseUrl: string) => `${baseUrl}/mcp`;
