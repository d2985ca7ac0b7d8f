import { basename } from 'node:path';
import type { Range } from './range.ts';
import { gitMaybe } from './run.ts';

export type Origin = { provider: string; label: string; url: string | null; ref: string | null; requestedBy: string | null };

const KNOWN_HOSTS: Record<string, string> = { 'github.com': 'github', 'gitlab.com': 'gitlab', 'bitbucket.org': 'bitbucket', 'codeberg.org': 'codeberg' };

/**
 * Where the change comes from, for display (the service never calls the provider): the remote's
 * host and repository, a link to the commit or the comparison, the ref (a tag at the head, else
 * the branch, else the short id) and who asked (git's user.name).
 */
export async function originOf(cwd: string, range: Range): Promise<Origin> {
  const remote = (await gitMaybe(cwd, ['remote', 'get-url', 'origin'])) ?? (await firstRemoteUrl(cwd));
  const parsed = remote ? parseRemote(remote) : null;
  const root = (await gitMaybe(cwd, ['rev-parse', '--show-toplevel'])) ?? cwd;
  const ref = (await gitMaybe(cwd, ['describe', '--tags', '--exact-match', range.head]))
    ?? (await branchAt(cwd, range.head)) ?? range.head.slice(0, 12);
  const requestedBy = (await gitMaybe(cwd, ['config', 'user.name'])) ?? (await gitMaybe(cwd, ['config', 'user.email']));
  return {
    provider: parsed?.provider ?? 'git',
    label: (parsed?.repository ?? basename(root)).slice(0, 200) || 'repository',
    url: parsed ? changeUrl(parsed, range) : null,
    ref: ref.slice(0, 200),
    requestedBy: requestedBy ? requestedBy.slice(0, 120) : null,
  };
}

async function firstRemoteUrl(cwd: string) {
  const name = (await gitMaybe(cwd, ['remote']))?.split('\n')[0];
  return name ? gitMaybe(cwd, ['remote', 'get-url', name]) : null;
}

async function branchAt(cwd: string, head: string) {
  const current = await gitMaybe(cwd, ['rev-parse', 'HEAD']);
  return current === head ? gitMaybe(cwd, ['symbolic-ref', '--short', '-q', 'HEAD']) : null;
}

type Remote = { provider: string; host: string; repository: string };

/** `git@host:owner/repo.git`, `ssh://git@host/owner/repo`, `https://user:token@host/owner/repo.git`: never the credentials. */
export function parseRemote(remote: string): Remote | null {
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(remote);
  let host: string;
  let path: string;
  if (scp) [host, path] = [scp[1]!, scp[2]!];
  else {
    try {
      const url = new URL(remote);
      if (!url.hostname) return null;
      [host, path] = [url.hostname, url.pathname];
    } catch {
      return null;
    }
  }
  const repository = path.replace(/^\/+/, '').replace(/\.git\/?$/, '').replace(/\/+$/, '');
  if (!repository) return null;
  const provider = KNOWN_HOSTS[host] ?? (host.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+/, '').slice(0, 40) || 'git');
  return { provider, host, repository };
}

/** The provider's page of the commit, or of the comparison of the range. */
function changeUrl(remote: Remote, range: Range): string {
  const repo = `https://${remote.host}/${remote.repository}`;
  const single = range.commits.length === 1 || !range.base;
  if (remote.provider === 'gitlab') return single ? `${repo}/-/commit/${range.head}` : `${repo}/-/compare/${range.base}...${range.head}`;
  if (remote.provider === 'bitbucket') return single ? `${repo}/commits/${range.head}` : `${repo}/branches/compare/${range.head}%0D${range.base}`;
  return single ? `${repo}/commit/${range.head}` : `${repo}/compare/${range.base}...${range.head}`;
}
