import { describe, expect, it } from 'vitest';
import { Pitch } from '@vp/contracts';
import { pitchMarkdown } from '@vp/pitch';
import { pitchEmail } from './email.ts';

// Text from a brief, with what must not come through as markup: tags, a link, a tracking picture.
const pitch = Pitch.parse({
  version: 2, title: 'Dark mode <b>ships</b>', estimatedCredits: 10, createdAt: '2026-11-24T07:00:00.000Z',
  summary: 'A 10-second video. See [our site](https://evil.example) and ![](https://evil.example/pixel.png).',
  music: 'A light electronic groove',
  shots: [
    { index: 0, title: 'Hook', durationMs: 4000, visual: 'The logo resolves <script>alert(1)</script>', text: 'Dark mode', voiceover: 'Here is what is new.' },
    { index: 1, title: 'Call to action', durationMs: 6000, visual: 'End card', text: 'Try it today' },
  ],
});
const links = {
  greenlight: 'https://app.example/go/t0k?action=greenlight',
  comment: 'https://app.example/go/t0k?action=comment',
  decline: 'https://app.example/go/t0k?action=decline',
};
const email = pitchEmail({
  workspaceName: 'Acme & Co', intent: 'Announce dark mode', pitch, pitchMarkdown: pitchMarkdown(pitch),
  pageUrl: 'https://app.example/productions/p1', links, expiresAt: new Date('2026-12-01T07:22:00Z'),
});

describe('the pitch e-mail', () => {
  it('answers with three buttons: greenlight (with its credits), comment and decline', () => {
    const buttons = [...email.html.matchAll(/<a href="([^"]+)" style="(display:inline-block[^"]+)">([^<]+)<\/a>/g)]
      .map(([, href, style, label]) => ({ href, label, filled: style!.includes('background:#4f46e5') }));
    expect(buttons).toEqual([
      { href: links.greenlight, label: 'Greenlight for 10 credits', filled: true },
      { href: links.comment, label: 'Send comments', filled: false },
      { href: links.decline, label: 'Decline', filled: false },
    ]);
    expect(email.html).toContain('These links work without signing in until 2026-12-01 07:22 UTC, and only for pitch version 2.');
    expect(email.html).toContain('<b>Acme &#38; Co</b>');
  });

  it('shows the pitch as formatted text: a heading, the summary, and the shots as a list', () => {
    expect(email.html).toMatch(/<h1 style="[^"]+">Dark mode &lt;b&gt;ships&lt;\/b&gt;<\/h1>/);
    expect(email.html).toMatch(/<ol>\s*<li><strong>Hook<\/strong> · 0:00\.0–0:04\.0 \(4 s\)/);
    expect(email.html).toContain('<li>On screen: “Try it today”</li>');
    expect(email.html).toMatch(/<h2 style="[^"]+">Music<\/h2>/);
    expect(email.html).not.toContain('<pre');
  });

  it('lets nothing from the brief become markup, a link or a picture', () => {
    expect(email.html).toContain('The logo resolves &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).not.toMatch(/<script|<img|evil\.example"/);
    expect(email.html).toContain('See [our site](https://evil.example)');
  });

  it('keeps a plain-text part with the links and the pitch as markdown', () => {
    expect(email.subject).toBe('Pitch ready: Dark mode <b>ships</b>');
    expect(email.text).toContain(`Greenlight it (10 credits): ${links.greenlight}`);
    expect(email.text).toContain(pitchMarkdown(pitch));
  });
});

describe('the pitch e-mail with its storyboard', () => {
  const drawn = Pitch.parse({
    ...pitch,
    shots: pitch.shots.map((shot) => ({ ...shot, previewUrl: `https://api.example/storyboards/p1/2/${shot.index}.jpg?expires=1&signature=s"x` })),
  });
  const withStills = pitchEmail({
    workspaceName: 'Acme & Co', intent: 'Announce dark mode', pitch: drawn, pitchMarkdown: pitchMarkdown(drawn),
    pageUrl: 'https://app.example/productions/p1', links, expiresAt: new Date('2026-12-01T07:22:00Z'),
  });

  it('shows one still per shot, our signed addresses escaped, each named for its shot', () => {
    const images = [...withStills.html.matchAll(/<img src="([^"]+)" alt="([^"]+)"/g)].map(([, src, alt]) => ({ src, alt }));
    expect(images).toEqual([
      { src: 'https://api.example/storyboards/p1/2/0.jpg?expires=1&#38;signature=s&#34;x', alt: 'Shot 1: Hook' },
      { src: 'https://api.example/storyboards/p1/2/1.jpg?expires=1&#38;signature=s&#34;x', alt: 'Shot 2: Call to action' },
    ]);
    expect(withStills.text).toContain('Shot 1, Hook: https://api.example/storyboards/p1/2/0.jpg');
  });

  it('shows none while the stills are not drawn', () => {
    expect(email.html).not.toContain('<img');
  });
});
