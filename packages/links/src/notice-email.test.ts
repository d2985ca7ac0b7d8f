import { describe, expect, it } from 'vitest';
import { noticeEmail } from './notice-email.ts';

const about = { workspaceName: 'Acme & Co', title: 'Dark mode <b>ships</b>', pageUrl: 'https://app.example/productions/p1' };

describe('the notice e-mails', () => {
  it('video delivered: the share link, the production\'s page and the credits charged; brief text escaped', () => {
    const email = noticeEmail({ ...about, kind: 'video_delivered', shareUrl: 'https://app.example/share/e1', creditsCharged: 10 });
    expect(email.subject).toBe('Video delivered: Dark mode <b>ships</b>');
    expect(email.text).toContain('Watch and share it: https://app.example/share/e1');
    expect(email.text).toContain('The production:  https://app.example/productions/p1');
    expect(email.text).toContain('10 credits charged.');
    expect(email.html).toContain('<a href="https://app.example/share/e1"');
    expect(email.html).toContain('<a href="https://app.example/productions/p1"');
    expect(email.html).toContain('Dark mode &#60;b&#62;ships&#60;/b&#62;');
    expect(email.html).not.toContain('<b>');
    expect(email.html).toContain('Acme &#38; Co');
  });

  it('production failed: the reason in words and the refund, with the production\'s page', () => {
    const email = noticeEmail({ ...about, kind: 'production_failed', reason: 'A media file could not be fetched.', creditsRefunded: 10 });
    expect(email.subject).toBe('Production failed: Dark mode <b>ships</b>');
    expect(email.text).toContain('A media file could not be fetched. Your 10 credits were refunded.');
    expect(email.text).toContain('The production: https://app.example/productions/p1');
    expect(email.html).toContain('<a href="https://app.example/productions/p1"');
  });

  it('says the refund once, when the reason says it already, and says nothing was charged when nothing was', () => {
    const refunded = noticeEmail({ ...about, kind: 'production_failed', reason: 'The video could not be made. Your credits were refunded.', creditsRefunded: 1 });
    expect(refunded.text).toContain('The video could not be made. Your 1 credit was refunded.');
    expect(refunded.text.match(/refunded/g)).toHaveLength(1);
    const pitch = noticeEmail({ ...about, kind: 'production_failed', reason: 'We could not write a pitch for this brief. Nothing was charged.', creditsRefunded: 0 });
    expect(pitch.text.match(/Nothing was charged/g)).toHaveLength(1);
  });
});
