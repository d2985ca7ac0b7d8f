import { createHash } from 'node:crypto';

/** Markup built with `html`: interpolated values are escaped unless they are markup themselves. */
export class Markup {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Value = Markup | string | number | null | undefined | false | Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof Markup) return value.value;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  return new Markup(strings.reduce((out, string, i) => out + string + (i < values.length ? render(values[i]!) : ''), ''));
}

const STYLE = `
  :root { color-scheme: light dark; --fg: #16181d; --muted: #5b6170; --line: #e3e5ea; --bg: #f7f8fa; --card: #fff; --accent: #4f46e5; }
  @media (prefers-color-scheme: dark) { :root { --fg: #eceef2; --muted: #9aa1b0; --line: #2a2e37; --bg: #0f1115; --card: #171a20; --accent: #8b85ff; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
  main { max-width: 960px; margin: 0 auto; padding: 32px 20px 64px; }
  h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 16px; }
  h2 { font-size: 1.15rem; margin: 0; }
  a { color: var(--accent); }
  video { display: block; width: 100%; height: auto; max-height: 75vh; background: #000; border-radius: 12px; }
  .muted { color: var(--muted); font-size: .92rem; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px; margin: 20px 0; }
  .row { display: flex; gap: 12px; align-items: center; justify-content: space-between; flex-wrap: wrap; }
  table { width: 100%; border-collapse: collapse; font-size: .92rem; margin-top: 12px; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
  button { font: inherit; padding: 8px 14px; border-radius: 8px; border: 0; background: var(--accent); color: #fff; cursor: pointer; }
  pre { overflow: auto; max-height: 420px; font-size: .8rem; background: var(--bg); padding: 12px; border-radius: 8px; }
  .status-done { color: #15803d; } .status-failed { color: #b91c1c; } .spaced { margin-top: 16px; }
  textarea { display: block; width: 100%; min-height: 5em; margin: 8px 0 12px; font: inherit; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
  input, select { font: inherit; padding: 6px 8px; border-radius: 8px; border: 1px solid var(--line); background: var(--bg); color: var(--fg); }
  input:not([type=color]) { display: block; width: 100%; margin-top: 4px; } input[type=color] { display: block; width: 64px; height: 36px; padding: 2px; margin-top: 4px; }
  fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 12px 0; padding: 8px 12px; } label { display: block; margin: 6px 0; font-size: .92rem; }
  .row label { flex: 1; } .field-problem { display: block; color: #b91c1c; }
  button.quiet { background: transparent; color: var(--fg); border: 1px solid var(--line); }
  .chosen { border: 2px solid var(--accent); }
  .notice { border-left: 4px solid var(--accent); } .notice.problem { border-left-color: #b91c1c; }
`;

/**
 * The stylesheet's hash, which the Content-Security-Policy names (`style-src 'sha256-…'`): the
 * pages' one stylesheet is always this text, and no page has a style attribute.
 */
export const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** A whole page: one stylesheet, no scripts. */
export function page(input: { title: string; head?: Markup; body: Markup }): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title}</title>${input.head}<style>${new Markup(STYLE)}</style></head>
<body><main>${input.body}</main></body></html>`}`;
}
