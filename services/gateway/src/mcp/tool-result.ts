import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, DomainError } from '@vp/contracts';
import { toApiError } from '../http/domain-errors.ts';

/** A tool's answer: the structured result, and the same as JSON text for clients that read only text. */
export function toolResult(structured: Record<string, unknown>, text?: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text: text ?? JSON.stringify(structured) }] };
}

/**
 * A refusal as an MCP tool error (not a protocol error: the model reads it and can act): the
 * API's words and code, from the one table that maps the domain's codes (http/domain-errors.ts).
 */
export function toolError(error: unknown): CallToolResult {
  if (!(error instanceof DomainError) && !(error instanceof ApiError)) throw error;
  const api = error instanceof DomainError ? toApiError(error) : error;
  const body = { error: api.message, ...(api.code ? { code: api.code } : {}), ...(api.issues ? { issues: api.issues } : {}), status: api.status };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Runs a tool's work, answering a domain refusal as a tool error. */
export async function answer(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(error);
  }
}
