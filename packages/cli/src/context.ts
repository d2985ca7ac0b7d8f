import { createClient, type VideoProductionClient } from '@vp/sdk';
import { credentialsPath, storedKey } from './credentials.ts';
import { UsageError, type Io } from './io.ts';

export const DEFAULT_BASE_URL = 'http://localhost:3000';

/** What every command gets: where the service is, how to print, and (on demand) a signed-in client. */
export type Context = Io & {
  baseUrl: string;
  json: boolean;
  /** The key and where it came from; a command that needs one and finds none is wrong usage. */
  key(): Promise<{ apiKey: string; from: 'VP_API_KEY' | string }>;
  client(): Promise<VideoProductionClient>;
  /** A client without a key, for the public routes (the device flow). */
  anonymous(): VideoProductionClient;
};

export function createContext(io: Io, options: { baseUrl?: string | undefined; json?: boolean | undefined }): Context {
  const baseUrl = (options.baseUrl || io.env.VP_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`The base URL must be an http(s) address, not "${baseUrl}"`);
  const key = async () => {
    if (io.env.VP_API_KEY) return { apiKey: io.env.VP_API_KEY, from: 'VP_API_KEY' };
    const stored = await storedKey(io.env, baseUrl);
    if (!stored) throw new UsageError(`Not signed in to ${baseUrl}: run \`vp login\`, or set VP_API_KEY`);
    return { apiKey: stored, from: credentialsPath(io.env) };
  };
  const headers = { 'user-agent': 'vp-cli/1.0' };
  return {
    ...io,
    baseUrl,
    json: Boolean(options.json),
    key,
    client: async () => createClient({ baseUrl, apiKey: (await key()).apiKey, headers }),
    anonymous: () => createClient({ baseUrl, headers }),
  };
}
