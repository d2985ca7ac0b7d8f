import { Hono } from 'hono';

/**
 * The login-free pages links lead to (`{APP_URL}/go/…`, `/share/…`) are still served by the
 * gateway: until they move into the app, the app sends the browser there, path and query kept
 * (307 keeps a form's method and body).
 */
export const GATEWAY_PAGES = ['/go', '/share'];

export function gatewayPageRoutes(baseUrl: string) {
  const app = new Hono();
  app.all('*', (c) => {
    const url = new URL(c.req.url);
    return c.redirect(`${baseUrl}${url.pathname}${url.search}`, 307);
  });
  return app;
}
