/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { BRAND_FIELDS, workspaceBrand } from '@vp/accounts';
import { DomainError } from '@vp/contracts';
import { createProduction, monthlyUsage } from '@vp/productions';
import type { Domain } from '@vp/domain';
import type { AppDeps, AppEnv } from '../env.ts';
import { statusOf } from '../http/errors.tsx';
import { NewProductionPage } from '../views/new-production.tsx';
import { blankForm, fieldOfIssue, readCreateForm, type BriefFormValues } from './brief-form.ts';
import { chromeOf } from './chrome.ts';

/** The largest .patch/.diff taken from the form: far past what 40 code items can hold. */
const DIFF_FILE_MAX_BYTES = 2_000_000;

/** Refusals of a whole create said above the form, with the status the API answers them with. */
const WHOLE_FORM = new Set(['credits', 'cap', 'disabled', 'unavailable', 'forbidden']);

async function formValues(c: Context): Promise<BriefFormValues> {
  const body = await c.req.parseBody({ all: true });
  const text = (name: string) => {
    const value = body[name];
    const last = Array.isArray(value) ? value.at(-1) : value;
    return typeof last === 'string' ? last : '';
  };
  const upload = body.diffFile;
  const file = upload instanceof File && upload.size > 0 ? upload : null;
  if (file && file.size > DIFF_FILE_MAX_BYTES) throw DomainError.invalid('diffFile', `The file is larger than ${DIFF_FILE_MAX_BYTES / 1_000_000} MB.`);
  const sound = body.sound;
  return {
    intent: text('intent'), context: text('context'), media: text('media'), codePath: text('codePath'), codeSource: text('codeSource'),
    diff: [text('diff'), file ? await file.text() : ''].filter(Boolean).join('\n'),
    template: text('template'), durationSeconds: text('durationSeconds'), aspect: text('aspect'),
    sound: (Array.isArray(sound) ? sound : sound === undefined ? [] : [sound]).filter((v): v is string => typeof v === 'string'),
    brand: Object.fromEntries(BRAND_FIELDS.map((name) => [name, text(`brand.${name}`)])) as BriefFormValues['brand'],
  };
}

/** `/productions/new`: the create form, recorded as `source.kind: app`, charged and capped as the API's create. */
export function newProductionRoutes(deps: AppDeps, domain: Domain) {
  const app = new Hono<AppEnv>();

  async function show(c: Context<AppEnv>, values: BriefFormValues, problems: Record<string, string> = {}, problem: string | null = null, status: 200 | 400 | 402 | 403 | 429 | 503 = 200) {
    const { usage } = await monthlyUsage(domain.productions, c.var.caller, c.var.workspace.workspaceId);
    return c.html(
      <NewProductionPage chrome={await chromeOf(deps, c)} values={values} problems={problems} problem={problem}
        pitchesLeft={Math.max(0, usage.pitches.cap - usage.pitches.used)} balance={usage.credits.balance} />,
      status,
    );
  }

  app.get('/', async (c) => show(c, blankForm(await workspaceBrand(deps.db, c.var.caller, c.var.workspace.workspaceId))));

  app.post('/', async (c) => {
    let values: BriefFormValues;
    try {
      values = await formValues(c);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
      const blank = blankForm(await workspaceBrand(deps.db, c.var.caller, c.var.workspace.workspaceId));
      return show(c, blank, { diffFile: error.message }, 'Nothing was created: see what to change below.', 400);
    }
    const read = readCreateForm(values, c.var.workspace.workspaceId);
    if (!read.ok) return show(c, values, read.problems, 'Nothing was created: see what to change below.', 400);
    try {
      const { production } = await createProduction(domain.productions, c.var.caller, read.body);
      return c.redirect(`/productions/${production.id}?done=created`, 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'invalid') {
        const issues = error.details.issues ?? [{ path: '', message: error.message }];
        return show(c, values, Object.fromEntries(issues.map((issue) => [fieldOfIssue(issue.path), issue.message])), 'Nothing was created: see what to change below.', 400);
      }
      if (!WHOLE_FORM.has(error.code)) throw error;
      const status = statusOf(error) as 402 | 403 | 429 | 503;
      if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
      return show(c, values, {}, `Nothing was created. ${error.message}`, status);
    }
  });

  return app;
}
