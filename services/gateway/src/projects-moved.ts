import { Hono } from 'hono';
import type { GatewayEnv } from './deps.ts';

/**
 * The editable project moved into the app, behind sign-in. While the gateway served it, the app
 * forwarded `{app_url}/projects/…` here, so bookmarks and copied addresses hold
 * `{base_url}/projects/…`: they lead back to the app, path and query kept, where a signed-out
 * browser signs in and is brought back.
 */
export function movedProjectRoutes(appUrl: string) {
  const app = new Hono<GatewayEnv>();
  // The two pages the gateway served (pages-openapi.ts documents them); its forms were never addresses to keep.
  for (const path of ['/projects/:projectId', '/projects/:projectId/edit']) {
    app.get(path, (c) => {
      const url = new URL(c.req.url);
      return c.redirect(`${appUrl}${url.pathname}${url.search}`, 301);
    });
  }
  return app;
}
