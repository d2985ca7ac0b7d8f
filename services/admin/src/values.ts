import { ROLES, Role, SCOPES, Scope } from '@vp/contracts';
import { usageError } from './cli-error.ts';
import type { Option, Values } from './command.ts';

/** Validators for option values: each returns the typed value or throws a usage error naming the option. */

export function text(values: Values, key: string): string {
  const value = values[key];
  if (typeof value !== 'string') throw usageError(`missing --${key}`);
  return value.trim();
}

export function optionalText(values: Values, key: string): string | undefined {
  return values[key] === undefined ? undefined : text(values, key);
}

/** `--email E`, naming the account a command acts on. */
export const ACCOUNT_EMAIL: Option = { type: 'string', value: 'E', required: true, description: 'the account e-mail' };

export function email(values: Values, key = 'email'): string {
  const value = text(values, key);
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw usageError(`--${key} must be an e-mail address, got '${value}'`);
  return value.toLowerCase();
}

/** A name of 1 to 100 characters (API keys and workspaces alike). */
export function name(values: Values, key = 'name'): string {
  const value = text(values, key);
  if (value.length < 1 || value.length > 100) throw usageError(`--${key} must be 1 to 100 characters`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function id(values: Values, key: string): string {
  const value = text(values, key);
  if (!UUID.test(value)) throw usageError(`--${key} must be an id (a UUID), got '${value}'`);
  return value.toLowerCase();
}

const INT_MAX = 2 ** 31 - 1;

export function integer(values: Values, key: string, { min }: { min: number }): number {
  const raw = text(values, key);
  const value = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > INT_MAX) {
    const wanted = min === 1 ? 'a positive whole number' : `a whole number of at least ${min}`;
    throw usageError(`--${key} must be ${wanted}, got '${raw}'`);
  }
  return value;
}

export function role(values: Values, key = 'role'): Role {
  const raw = text(values, key);
  const parsed = Role.safeParse(raw);
  if (!parsed.success) throw usageError(`--${key} must be one of ${ROLES.join(', ')}, got '${raw}'`);
  return parsed.data;
}

/** A comma-separated list of distinct scopes, at least one. */
export function scopes(values: Values, key = 'scopes'): Scope[] {
  const parts = text(values, key).split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw usageError(`--${key} needs at least one of ${SCOPES.join(', ')}`);
  const unknown = parts.filter((s) => !Scope.safeParse(s).success);
  if (unknown.length) throw usageError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')} (choose from ${SCOPES.join(', ')})`);
  return [...new Set(parts as Scope[])];
}
