import { z } from 'zod';
import { DomainError } from '@vp/contracts';

/** What a browser's `type=email` field accepts (so `dev@localhost`, the development account, too). */
const Email = z.email({ pattern: z.regexes.html5Email }).max(254);
const Uuid = z.uuid();

/** An e-mail address as stored: trimmed, lower-case; a DomainError naming `path` when it is none. */
export function emailAddress(input: string, path = 'email'): string {
  const email = input.trim().toLowerCase();
  if (!Email.safeParse(email).success) throw DomainError.invalid(path, 'Enter an e-mail address, like ada@example.com.');
  return email;
}

/** An id from an address or a form: what is not a UUID names nothing (and never reaches PostgreSQL as one). */
export function idOrNotFound(id: string, what: string): string {
  if (!Uuid.safeParse(id).success) throw new DomainError('not_found', `No such ${what}.`);
  return id;
}

/** A person's name: trimmed, at most 120 characters; empty is none. */
export function personName(input: string): string | null {
  const name = input.trim();
  if (name.length > 120) throw DomainError.invalid('name', 'A name is at most 120 characters.');
  if (name.includes('\u0000')) throw DomainError.invalid('name', 'A name may not contain the NUL character.');
  return name || null;
}
