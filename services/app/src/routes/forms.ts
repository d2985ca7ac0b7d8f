import type { Context } from 'hono';
import { DomainError } from '@vp/contracts';

/** A text field of a posted form ('' when missing; the last value when sent twice). */
export async function field(c: Context, name: string): Promise<string> {
  const value = (await c.req.parseBody({ all: true }))[name];
  const last = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === 'string' ? last : '';
}

/** Every value of a repeated field (checkboxes). */
export async function fields(c: Context, name: string): Promise<string[]> {
  const value = (await c.req.parseBody({ all: true }))[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}

/** The message of a refusal a form shows beside itself; any other error goes on to the error page. */
export function invalidMessage(error: unknown): string {
  if (error instanceof DomainError && error.code === 'invalid') return error.message;
  throw error;
}

/** Per field, the messages of an `invalid` refusal (for forms that show each beside its field). */
export function issuesByField(error: unknown): Record<string, string> {
  if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
  const issues = error.details.issues ?? [{ path: '', message: error.message }];
  return Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
}
