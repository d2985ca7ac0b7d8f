/**
 * The baseline of bench/gateway: a bare Hono + pg handler doing the same indexed SELECT the
 * gateway's read does, with nothing around it (no auth, no rate limit, no validation).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import pg from 'pg';

const [databaseUrl, port] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const app = new Hono();
app.get('/v1/productions/:id', async (c) => {
  const { rows } = await pool.query('SELECT * FROM productions WHERE id = $1', [c.req.param('id')]);
  return rows[0] ? c.json({ production: rows[0] }) : c.json({ error: 'not found' }, 404);
});
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(port) }, () => process.stdout.write('ready\n'));
