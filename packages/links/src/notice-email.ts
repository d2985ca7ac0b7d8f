/** What a notice e-mail says: the production it is about, and what became of it. */
export type NoticeEmailInput = {
  workspaceName: string;
  /** The pitch's title, or the brief's intent where no pitch was written. */
  title: string;
  pageUrl: string;
} & (
  | { kind: 'video_delivered'; shareUrl: string; creditsCharged: number }
  | { kind: 'production_failed'; reason: string; creditsRefunded: number }
);

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";
const BUTTON = 'display:inline-block;margin:0 8px 8px 0;padding:10px 16px;border-radius:8px;font-weight:600;text-decoration:none';
const PRIMARY = `${BUTTON};background:#4f46e5;color:#ffffff;border:1px solid #4f46e5`;
const SECONDARY = `${BUTTON};background:#ffffff;color:#16181d;border:1px solid #c9ccd4`;

/**
 * The e-mail telling an owner or editor that a production's video was delivered (its share
 * link, its page, what it cost) or that the production failed (why, in words, and the refund).
 * Every one links to the production's page. Its text comes from the brief: all of it is escaped.
 */
export function noticeEmail(input: NoticeEmailInput): { subject: string; text: string; html: string } {
  const where = `in ${input.workspaceName}`;
  if (input.kind === 'video_delivered') {
    const cost = `${input.creditsCharged} ${plural(input.creditsCharged, 'credit')} charged.`;
    return {
      subject: `Video delivered: ${input.title}`,
      text: [`The video “${input.title}” is ready ${where}.`, '', `Watch and share it: ${input.shareUrl}`, `The production:  ${input.pageUrl}`, '', cost].join('\n'),
      html: page([
        `<p>The video “${escapeHtml(input.title)}” is ready ${escapeHtml(where)}.</p>`,
        `<p>${button(input.shareUrl, 'Watch and share', PRIMARY)}${button(input.pageUrl, 'Open the production', SECONDARY)}</p>`,
        `<p style="color:#5b6170;font-size:14px">${escapeHtml(cost)}</p>`,
      ]),
    };
  }
  const refund = input.creditsRefunded > 0
    ? input.creditsRefunded === 1 ? 'Your 1 credit was refunded.' : `Your ${input.creditsRefunded} credits were refunded.`
    : 'Nothing was charged.';
  // The reason may say it in general words ("Your credits were refunded."): said once, with the amount.
  const outcome = `${input.reason.replace(/\s*(Your credits were refunded|Nothing was charged)\.$/i, '')} ${refund}`;
  return {
    subject: `Production failed: ${input.title}`,
    text: [`The production “${input.title}” failed ${where}.`, '', outcome, '', `The production: ${input.pageUrl}`].join('\n'),
    html: page([
      `<p>The production “${escapeHtml(input.title)}” failed ${escapeHtml(where)}.</p>`,
      `<p>${escapeHtml(outcome)}</p>`,
      `<p>${button(input.pageUrl, 'Open the production', SECONDARY)}</p>`,
    ]),
  };
}

function page(paragraphs: string[]): string {
  return [`<div style="${FONT};max-width:640px;margin:0 auto;padding:16px;color:#16181d;font-size:16px;line-height:1.5">`, ...paragraphs, '</div>'].join('\n');
}

function button(href: string, label: string, style: string): string {
  return `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(label)}</a>`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
