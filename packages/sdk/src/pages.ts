/** One page of a list route: its items under some key, and where the next page starts. */
export type Page<T> = { items: T[]; nextCursor?: string | undefined };

/**
 * Every item of a list, page after page, following `nextCursor` until the last page.
 * Stop early with `break`; no page past it is read.
 */
export async function* paginate<T>(readPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    yield* page.items;
    cursor = page.nextCursor;
  } while (cursor);
}
