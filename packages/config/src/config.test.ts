import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES, loadConfig } from './index.ts';

const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
const compose = readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8');

describe('configuration', () => {
  it('.env.example lists every variable the service reads, and nothing else', () => {
    const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...new Set(listed)].sort()).toEqual([...ENV_NAMES].sort());
  });

  it('.env.example itself is a valid configuration', () => {
    const values = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    expect(() => loadConfig(values)).not.toThrow();
  });

  it('docker-compose.yml, with its defaults and the secrets it asks for, is a valid configuration', () => {
    const secret = 'a-production-secret-of-at-least-32-characters';
    const values = Object.fromEntries([...compose.matchAll(/^\s+([A-Z][A-Z0-9_]+): (.*)$/gm)]
      .filter(([, name]) => ENV_NAMES.includes(name!))
      .map(([, name, value]) => [name, value!.replace(/\$\{\w+:-([^}]*)\}/g, '$1').replace(/\$\{\w+:\?[^}]*\}/g, name!.endsWith('_URL') ? `https://${name === 'APP_URL' ? 'app' : 'video'}.example.com` : secret)]));
    expect(values).toMatchObject({ NODE_ENV: 'production', PITCH_WRITER_URL: '', S3_ENDPOINT: '' });
    expect(() => loadConfig(values)).not.toThrow();
  });

  it('docker-compose.yml hands its services every setting but the development ones, given or passed on', () => {
    const named = new Set([...compose.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
    const development = ['ALLOW_PRIVATE_URLS', 'DEV_POSTGRES_PORT', 'DEV_TEMPORAL_PORT', 'DEV_TEMPORAL_UI_PORT', 'HOST', 'TEMPORAL_CLI_PATH'];
    expect(ENV_NAMES.filter((name) => !named.has(name) && !development.includes(name))).toEqual([]);
  });

  it('refuses the development secrets in production, naming them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/LINK_SIGNING_SECRET, URL_SIGNING_SECRET, WEBHOOK_SECRET_KEY/);
  });

  it('refuses to start in production without BASE_URL, which every link it sends begins with', () => {
    const secrets = Object.fromEntries(['LINK_SIGNING_SECRET', 'URL_SIGNING_SECRET', 'WEBHOOK_SECRET_KEY'].map((name) => [name, 'a-production-secret-of-at-least-32-characters']));
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets })).toThrow(/set BASE_URL in production/);
    // Nor without APP_URL: the app's pages, and the links that lead there.
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, BASE_URL: 'https://api.example.com' })).toThrow(/set APP_URL in production/);
    const urls = { BASE_URL: 'https://api.example.com', APP_URL: 'https://app.example.com' };
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, ...urls })).toMatchObject({ baseUrl: 'https://api.example.com', appUrl: 'https://app.example.com' });
    // Nor with the development secret kept as the previous link secret: anyone could sign links with it.
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, ...urls, LINK_SIGNING_SECRET_PREVIOUS: 'dev-link-signing-secret-change-me-please-0000' }))
      .toThrow(/set LINK_SIGNING_SECRET_PREVIOUS in production/);
  });

  it('points links at the ports the gateway and the app listen on, unless BASE_URL and APP_URL say otherwise', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({ baseUrl: 'http://localhost:8080', appUrl: 'http://localhost:3001' });
    expect(loadConfig({ APP_PORT: '8081' })).toMatchObject({ baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:8081', app: { port: 8081, signup: 'open' } });
    expect(loadConfig({ PORT: '8080', BASE_URL: 'https://api.example.com/' })).toMatchObject({ baseUrl: 'https://api.example.com', appUrl: 'http://localhost:3001' });
    expect(loadConfig({ BASE_URL: 'https://api.example.com', APP_URL: 'https://app.example.com' })).toMatchObject({ appUrl: 'https://app.example.com' });
  });

  it('reads TRUST_PROXY as the number of proxies in front: false, true (one) or a count', () => {
    const proxies = (TRUST_PROXY?: string) => loadConfig(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).http.trustedProxies;
    expect([proxies(), proxies('false'), proxies('true'), proxies('2')]).toEqual([0, 0, 1, 2]);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('explains an invalid value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PITCH_WRITER: 'openai' })).toThrow(/PITCH_WRITER_URL: required/);
  });
});
