import { describe, expect, it } from 'vitest';
import { parseRemote } from './origin.ts';

describe('the origin of a brief, read from the remote', () => {
  it('knows the usual forms of a remote address and the big providers', () => {
    expect(parseRemote('git@github.com:acme/widgets.git')).toEqual({ provider: 'github', host: 'github.com', repository: 'acme/widgets' });
    expect(parseRemote('ssh://git@gitlab.com/group/sub/app.git')).toEqual({ provider: 'gitlab', host: 'gitlab.com', repository: 'group/sub/app' });
    expect(parseRemote('https://bitbucket.org/team/site/')).toEqual({ provider: 'bitbucket', host: 'bitbucket.org', repository: 'team/site' });
    expect(parseRemote('https://git.example.co.uk/tools/vp')).toMatchObject({ provider: 'git-example-co-uk', repository: 'tools/vp' });
  });

  it('never carries the credentials a remote address may hold', () => {
    const parsed = parseRemote('https://x-access-token:ghp_secret@github.com/acme/widgets.git');
    expect(JSON.stringify(parsed)).not.toContain('secret');
    expect(parsed).toMatchObject({ provider: 'github', repository: 'acme/widgets' });
  });

  it('gives nothing for a local path, so the folder name labels the brief', () => {
    expect(parseRemote('/srv/git/widgets.git')).toBeNull();
    expect(parseRemote('../widgets')).toBeNull();
  });
});
