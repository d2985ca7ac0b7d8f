import { DomainError } from '@vp/contracts';

/**
 * Newest-first pages over (createdAt, id), ties broken by id: an opaque cursor holding the last
 * row's place, the condition for the rows after it, and one extra row fetched to tell whether
 * there is a next page.
 */
export type Position = { createdAt: Date; id: string };

export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

export function encodeCursor(row: Position): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

/** Where a page starts: the first page without a cursor; a 400 for a cursor no list gave. */
export function startOf(cursor: string | undefined): Position | null {
  if (!cursor) return null;
  const position = decodeCursor(cursor);
  if (!position) throw DomainError.invalid('cursor', 'The cursor is not one this list gave.');
  return position;
}

/** Years 0001 to 9999: JavaScript reads year 0000, which PostgreSQL refuses. */
const ISO_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Only what `encodeCursor` writes: anything looser could reach PostgreSQL as a date or uuid it refuses (a 500). */
function decodeCursor(cursor: string): Position | null {
  const [at = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at);
  if (rest.length || !ISO_INSTANT.test(at) || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at || !UUID.test(id)) return null;
  return { createdAt, id };
}

/** A `where` fragment for the rows after `position` in newest-first order (none: from the start). */
export function after(position: Position | null) {
  return position ? { OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }] } : {};
}

/** The page from `limit + 1` rows, with the cursor to the next one when there is one. */
export function toPage<Row extends Position>(rows: Row[], limit: number): { rows: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { rows: shown, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
