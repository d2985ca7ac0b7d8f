/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Brief } from '@vp/contracts';

/** What the production was asked for: every field of the brief, as text. */
export function BriefView({ brief }: { brief: Brief }) {
  const { format, brand } = brief;
  const sound = Object.entries(format.sound).filter(([, on]) => on).map(([name]) => name).join(', ') || 'none';
  const brandFields = Object.entries(brand).filter(([, value]) => value);
  return (
    <details class="card">
      <summary>The brief</summary>
      <dl class="pairs">
        <dt>Intent</dt><dd>{brief.intent}</dd>
        {brief.context ? <><dt>Context</dt><dd class="pre">{brief.context}</dd></> : null}
        <dt>Format</dt><dd>{format.template} · {format.durationMs / 1000} s · {format.aspect} · sound: {sound}</dd>
        {brief.media.map((item) => <><dt>{item.kind === 'video' ? 'Video' : 'Image'}</dt><dd><a href={item.url} rel="noreferrer">{item.name}</a>{item.description ? ` — ${item.description}` : ''}</dd></>)}
        {brief.code.map((file) => <><dt>Code</dt><dd><code>{file.path}</code>{file.status ? ` · ${file.status} +${file.additions} −${file.deletions}` : ''}</dd></>)}
        {brandFields.map(([name, value]) => <><dt>Brand {name}</dt><dd>{String(value)}</dd></>)}
      </dl>
    </details>
  );
}
