/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { ASPECTS, TEMPLATES } from '@vp/contracts';
import type { BriefFormValues } from '../routes/brief-form.ts';
import { Csrf, Page, Problem, type Chrome } from './layout.tsx';

type Props = { chrome: Chrome; values: BriefFormValues; problems: Record<string, string>; problem?: string | null; pitchesLeft: number; balance: number };

/** A field's label, its control, and its problem beside it (announced with the control). */
function Field(props: { name: string; label: string; hint?: string; problems: Record<string, string>; children: (described: { id: string; invalid?: 'true'; describedBy?: string }) => unknown }) {
  const id = `f-${props.name.replace(/\./g, '-')}`;
  const problem = props.problems[props.name];
  const described = [props.hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint ? <span id={`${id}-hint`} class="muted">{props.hint}</span> : null}
      {props.children({ id, invalid: problem ? 'true' : undefined, describedBy: described }) as never}
      {problem ? <span id={`${id}-problem`} class="field-problem">{problem}</span> : null}
    </div>
  );
}

const BRAND_LABELS = { name: 'Brand name', logoUrl: 'Logo address', primaryColor: 'Accent colour', backgroundColor: 'Background colour', fontFamily: 'Font', tone: 'Tone' } as const;

/** `/productions/new`: a brief in, a pitch written for free; the video is paid for once greenlit. */
export function NewProductionPage(props: Props) {
  const { values, problems } = props;
  const text = (name: keyof BriefFormValues, label: string, hint?: string) => (
    <Field name={name} label={label} hint={hint} problems={problems}>
      {(f) => <input id={f.id} name={name} value={values[name] as string} aria-invalid={f.invalid} aria-describedby={f.describedBy} />}
    </Field>
  );
  const area = (name: keyof BriefFormValues, label: string, hint: string, rows: number) => (
    <Field name={name} label={label} hint={hint} problems={problems}>
      {(f) => <textarea id={f.id} name={name} rows={rows} aria-invalid={f.invalid} aria-describedby={f.describedBy}>{values[name] as string}</textarea>}
    </Field>
  );
  return (
    <Page title="New production" nonce={props.chrome.nonce} chrome={props.chrome} scripts={['/assets/app.js']}>
      <h1>New production</h1>
      <p class="muted">In {props.chrome.workspace.name}. The pitch is free ({props.pitchesLeft} left this month); the video costs 1 credit a second once you greenlight it ({props.balance} credits available).</p>
      <Problem message={props.problem} />
      <form method="post" action="/productions/new" enctype="multipart/form-data" novalidate data-submit-once>
        <Csrf token={props.chrome.csrf} />
        <fieldset><legend>What the video is about</legend>
          {text('intent', 'Intent', 'One sentence: what should people take away?')}
          {area('context', 'Context', 'Release notes, a pull request description, anything the writer should know.', 5)}
          {area('media', 'Media links', 'One address per line, optionally followed by a name. Videos end in .mp4, .webm or .mov.', 3)}
        </fieldset>
        <fieldset><legend>Code</legend>
          {text('codePath', 'A file to show: its path')}
          {area('codeSource', 'Its source', 'Pasted as it is.', 5)}
          <Field name="diffFile" label="Or a .patch / .diff file" hint="Split into one code item per file, with its status and lines added and removed." problems={problems}>
            {(f) => <input id={f.id} type="file" name="diffFile" accept=".patch,.diff,text/x-diff,text/x-patch,text/plain" aria-describedby={f.describedBy} />}
          </Field>
          {area('diff', 'Or paste a diff', 'The output of git diff or git format-patch.', 4)}
          {problems.code ? <p id="f-code-problem" class="field-problem" role="alert">{problems.code}</p> : null}
        </fieldset>
        <fieldset><legend>Format</legend>
          <div class="grid">
            <Field name="template" label="Template" problems={problems}>
              {(f) => <select id={f.id} name="template" aria-describedby={f.describedBy}>{TEMPLATES.map((t) => <option value={t} selected={values.template === t}>{t}</option>)}</select>}
            </Field>
            <Field name="durationSeconds" label="Length in seconds" problems={problems}>
              {(f) => <input id={f.id} name="durationSeconds" type="number" inputmode="numeric" min={5} max={120} value={values.durationSeconds} aria-invalid={f.invalid} aria-describedby={f.describedBy} />}
            </Field>
            <Field name="aspect" label="Aspect" problems={problems}>
              {(f) => <select id={f.id} name="aspect" aria-describedby={f.describedBy}>{ASPECTS.map((a) => <option value={a} selected={values.aspect === a}>{a}</option>)}</select>}
            </Field>
          </div>
          <fieldset><legend>Sound</legend>
            {(['voiceover', 'music', 'sfx'] as const).map((kind) => (
              <label class="check"><input type="checkbox" name="sound" value={kind} checked={values.sound.includes(kind)} /> {kind === 'sfx' ? 'Sound effects' : kind === 'music' ? 'Music' : 'Voiceover'}</label>
            ))}
          </fieldset>
        </fieldset>
        <fieldset><legend>Brand</legend>
          <p class="muted">From the workspace's saved brand; changes here apply to this production only.</p>
          <div class="grid">
            {Object.entries(BRAND_LABELS).map(([name, label]) => (
              <Field name={`brand.${name}`} label={label} problems={problems}>
                {(f) => <input id={f.id} name={`brand.${name}`} value={values.brand[name as keyof typeof BRAND_LABELS]} aria-invalid={f.invalid} aria-describedby={f.describedBy} />}
              </Field>
            ))}
          </div>
        </fieldset>
        <button type="submit">Write the pitch</button>
      </form>
    </Page>
  );
}
