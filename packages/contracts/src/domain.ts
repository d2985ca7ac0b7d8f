import { UNAVAILABLE_RETRY_AFTER_SECONDS, type ValidationIssue } from './errors.ts';

/**
 * Who acts, as a front door names the caller to the domain and as workflows carry it: ids only,
 * never a name or an address (ARCHITECTURE rule 3). The step that records an action resolves it
 * into the timeline's actor (DECISIONS: `user:<accountId>`, `key:<keyId>`, `email:<address>`,
 * `webhook:<endpointId>`, `auto`, `system`) and the name a person reads.
 * `link-email:<accountId>`: a greenlight link e-mailed to that account; recorded as `email:<address>`.
 */
export type ActorId = `key:${string}` | `user:${string}` | `link-email:${string}` | `webhook:${string}` | 'auto' | 'system';

/** Where a production was asked for (the spec's `source.kind`). */
export type SourceKind = 'api' | 'app' | 'mcp';

/**
 * The caller of a domain command: the account acting, how the timeline names it, and the front
 * door it came through. Every front door (REST, app pages, device flow, MCP) builds one.
 */
export type Caller = { accountId: string; actor: ActorId; via: SourceKind };

export const DOMAIN_ERROR_CODES = [
  'invalid', 'not_found', 'forbidden', 'credits', 'cap', 'stage', 'stale', 'revisions', 'expired', 'revoked', 'limit',
  'endpoint_disabled', 'wrong_server', 'disabled', 'unavailable', 'not_api_key', 'rate_limited',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/**
 * A command refused by a rule of the domain, in words a person can read. The domain never
 * speaks HTTP: each front door maps the code to its own answer in one table (the gateway's
 * `http/domain-errors.ts`, the app's pages, the MCP server's tool errors).
 */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: { issues?: ValidationIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }

  /** How long the caller waits before asking again, when the refusal says: its own, or a service's brief absence. */
  get retryAfterSeconds(): number | undefined {
    return this.details.retryAfterSeconds ?? (this.code === 'unavailable' ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined);
  }

  /** A field refused by a check its schema cannot make (a url's addresses, a cursor). */
  static invalid(path: string, message: string): DomainError {
    return new DomainError('invalid', message, { issues: [{ path, message }] });
  }
}
