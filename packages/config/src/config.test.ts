import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEV_SECRETS, ENV_NAMES, loadConfig, SECRET_NAMES } from './index.ts';

const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
const compose = readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8');
/** Secrets as a deployment makes them: 32 random bytes, base64. */
const secrets = Object.fromEntries(SECRET_NAMES.map((name) => [name, randomBytes(32).toString('base64')]));

describe('configuration', () => {
  it('.env.example lists every variable the service reads, and nothing else', () => {
    const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...new Set(listed)].sort()).toEqual([...ENV_NAMES].sort());
  });

  it('.env.example is a valid configuration once its secrets are set, and names them until then', () => {
    const values = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    expect(() => loadConfig(values)).toThrow(/set LINK_SIGNING_SECRET, URL_SIGNING_SECRET, WEBHOOK_SECRET_KEY, TEMPORAL_PAYLOAD_KEY/);
    expect(() => loadConfig({ ...values, ...secrets })).not.toThrow();
  });

  it('docker-compose.yml, with its defaults and the secrets it asks for, is a valid configuration', () => {
    const secret = 'a-production-secret-of-at-least-32-characters';
    const values = Object.fromEntries([...compose.matchAll(/^\s+([A-Z][A-Z0-9_]+): (.*)$/gm)]
      .filter(([, name]) => ENV_NAMES.includes(name!))
      .map(([, name, value]) => [name, value!.replace(/\$\{\w+:-([^}]*)\}/g, '$1').replace(/\$\{\w+:\?[^}]*\}/g, name!.endsWith('_URL') ? `https://${name === 'APP_URL' ? 'app' : 'video'}.example.com` : secrets[name!] ?? secret)]));
    expect(values).toMatchObject({ NODE_ENV: 'production', PITCH_WRITER_URL: '', S3_ENDPOINT: '' });
    expect(() => loadConfig(values)).not.toThrow();
  });

  it('docker-compose.yml hands its services every setting but the development ones, given or passed on', () => {
    const named = new Set([...compose.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
    const development = ['ALLOW_PRIVATE_URLS', 'ALLOW_DEV_SECRETS', 'DEV_POSTGRES_PORT', 'DEV_TEMPORAL_PORT', 'DEV_TEMPORAL_UI_PORT', 'HOST', 'TEMPORAL_CLI_PATH'];
    expect(ENV_NAMES.filter((name) => !named.has(name) && !development.includes(name))).toEqual([]);
  });

  it('refuses the development secrets in production, naming them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/set LINK_SIGNING_SECRET, URL_SIGNING_SECRET, WEBHOOK_SECRET_KEY, TEMPORAL_PAYLOAD_KEY in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', ...DEV_SECRETS, BASE_URL: 'https://api.example.com' })).toThrow(/set LINK_SIGNING_SECRET, URL_SIGNING_SECRET, WEBHOOK_SECRET_KEY, TEMPORAL_PAYLOAD_KEY in production/);
  });

  it('refuses missing secrets and the built-in development ones everywhere, unless ALLOW_DEV_SECRETS=true outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(() => loadConfig({ NODE_ENV })).toThrow(/set LINK_SIGNING_SECRET, URL_SIGNING_SECRET, WEBHOOK_SECRET_KEY, TEMPORAL_PAYLOAD_KEY \(`pnpm dev` generates its own; ALLOW_DEV_SECRETS=true/);
      expect(() => loadConfig({ NODE_ENV, ...secrets, URL_SIGNING_SECRET: DEV_SECRETS.URL_SIGNING_SECRET })).toThrow(/set URL_SIGNING_SECRET \(/);
      expect(() => loadConfig({ NODE_ENV, ...secrets, TEMPORAL_PAYLOAD_KEY: undefined })).toThrow(/set TEMPORAL_PAYLOAD_KEY \(/);
      // A previous secret that is a built-in one would let anyone sign too.
      expect(() => loadConfig({ NODE_ENV, ...secrets, WEBHOOK_SECRET_KEY_PREVIOUS: DEV_SECRETS.WEBHOOK_SECRET_KEY })).toThrow(/set WEBHOOK_SECRET_KEY_PREVIOUS \(/);
    }
    // With the switch, the built-in ones stand in for those unset; those set are kept.
    const dev = loadConfig({ ALLOW_DEV_SECRETS: 'true', URL_SIGNING_SECRET: secrets.URL_SIGNING_SECRET });
    expect(dev.secrets).toMatchObject({ links: DEV_SECRETS.LINK_SIGNING_SECRET, urls: secrets.URL_SIGNING_SECRET, webhookKey: DEV_SECRETS.WEBHOOK_SECRET_KEY });
    expect(dev.temporal.payloadKey).toEqual(Buffer.from(DEV_SECRETS.TEMPORAL_PAYLOAD_KEY, 'base64'));
    expect(() => loadConfig({ ALLOW_DEV_SECRETS: 'true', WEBHOOK_SECRET_KEY_PREVIOUS: DEV_SECRETS.WEBHOOK_SECRET_KEY })).not.toThrow();
  });

  it('refuses ALLOW_DEV_SECRETS and ALLOW_PRIVATE_URLS in production, whatever else is set', () => {
    const production = { NODE_ENV: 'production', ...secrets, BASE_URL: 'https://api.example.com', APP_URL: 'https://app.example.com' };
    expect(loadConfig(production).allowPrivateUrls).toBe(false);
    expect(() => loadConfig({ ...production, ALLOW_DEV_SECRETS: 'true' })).toThrow('Invalid environment: ALLOW_DEV_SECRETS=true cannot be used in production');
    expect(() => loadConfig({ ...production, ALLOW_PRIVATE_URLS: 'true' })).toThrow('Invalid environment: ALLOW_PRIVATE_URLS=true cannot be used in production');
    expect(() => loadConfig({ ...production, ALLOW_PRIVATE_URLS: '1', ALLOW_DEV_SECRETS: 'true' })).toThrow(/ALLOW_DEV_SECRETS=true and ALLOW_PRIVATE_URLS=true cannot/);
    // Off unless set, elsewhere too.
    expect(loadConfig(secrets).allowPrivateUrls).toBe(false);
    expect(loadConfig({ ...secrets, ALLOW_PRIVATE_URLS: 'true' }).allowPrivateUrls).toBe(true);
  });

  it('reads the Temporal payload key, and the previous one while it is rotated, as 32 bytes', () => {
    const previous = randomBytes(32).toString('base64');
    const config = loadConfig({ ...secrets, TEMPORAL_PAYLOAD_KEY_PREVIOUS: previous });
    expect(config.temporal.payloadKey).toEqual(Buffer.from(secrets.TEMPORAL_PAYLOAD_KEY!, 'base64'));
    expect(config.temporal.previousPayloadKey).toEqual(Buffer.from(previous, 'base64'));
    expect(loadConfig(secrets).temporal.previousPayloadKey).toBeNull();
    for (const key of [randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'not base64 at all, though 44 characters long!']) {
      expect(() => loadConfig({ ...secrets, TEMPORAL_PAYLOAD_KEY: key })).toThrow(/TEMPORAL_PAYLOAD_KEY: 32 random bytes, base64/);
    }
  });

  it('refuses to start in production without BASE_URL, which every link it sends begins with', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets })).toThrow(/set BASE_URL in production/);
    // Nor without APP_URL: the app's pages, and the links that lead there.
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, BASE_URL: 'https://api.example.com' })).toThrow(/set APP_URL in production/);
    const urls = { BASE_URL: 'https://api.example.com', APP_URL: 'https://app.example.com' };
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, ...urls })).toMatchObject({ baseUrl: 'https://api.example.com', appUrl: 'https://app.example.com' });
    // Nor with the development secret kept as the previous link secret: anyone could sign links with it.
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, ...urls, LINK_SIGNING_SECRET_PREVIOUS: 'dev-link-signing-secret-change-me-please-0000' }))
      .toThrow(/set LINK_SIGNING_SECRET_PREVIOUS in production/);
  });

  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig(secrets).http.host).toBe('127.0.0.1');
    expect(loadConfig({ ...secrets, HOST: '0.0.0.0' }).http.host).toBe('0.0.0.0');
  });

  it('points links at the ports the gateway and the app listen on, unless BASE_URL and APP_URL say otherwise', () => {
    expect(loadConfig({ ...secrets, PORT: '8080' })).toMatchObject({ baseUrl: 'http://localhost:8080', appUrl: 'http://localhost:3001' });
    expect(loadConfig({ ...secrets, APP_PORT: '8081' })).toMatchObject({ baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:8081', app: { port: 8081, signup: 'open' } });
    expect(loadConfig({ ...secrets, PORT: '8080', BASE_URL: 'https://api.example.com/' })).toMatchObject({ baseUrl: 'https://api.example.com', appUrl: 'http://localhost:3001' });
    expect(loadConfig({ ...secrets, BASE_URL: 'https://api.example.com', APP_URL: 'https://app.example.com' })).toMatchObject({ appUrl: 'https://app.example.com' });
  });

  it('reads TRUST_PROXY as the number of proxies in front: false, true (one) or a count', () => {
    const proxies = (TRUST_PROXY?: string) => loadConfig({ ...secrets, TRUST_PROXY }).http.trustedProxies;
    expect([proxies(), proxies('false'), proxies('true'), proxies('2')]).toEqual([0, 0, 1, 2]);
    expect(() => loadConfig({ ...secrets, TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('explains an invalid value', () => {
    expect(() => loadConfig({ ...secrets, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...secrets, PITCH_WRITER: 'openai' })).toThrow(/PITCH_WRITER_URL: required/);
  });
});
