import type { Context } from 'hono';
import { ApiError } from '@vp/contracts';
import { notFoundPage } from './page.ts';

/** A person's browser, which is answered with pages; programs get the error shape. */
export const wantsPage = (c: Context) => c.req.header('accept')?.includes('text/html') ?? false;

/** Nothing at this address: a page for people, the error shape for programs. */
export function missing(c: Context, message: string) {
  if (wantsPage(c)) return c.html(notFoundPage(message), 404);
  throw new ApiError(404, message, 'not_found');
}
