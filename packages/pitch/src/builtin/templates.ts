import type { Brief, CodeFile } from '@vp/contracts';
import { capitalize, humanizePath, phrasings } from '../text.ts';
import { areaScene, changeScene, introScene, mediaScene, outroScene, pointScene, subjectScene, type Scene } from './scene.ts';
import type { Story } from './story.ts';

/** A template's draft: every body shot it would like, ranked by `priority`, plus its frame. */
export type Draft = { title: string; intro: Scene; body: Scene[]; outro: Scene };
type Template = (story: Story) => Draft;

const titled = (story: Story, title: string) => (story.brand ? `${story.brand}: ${title}` : title);

/** One shot per code change, most important first; the rest of the brief when there is no code. */
const changelog: Template = (story) => ({
  title: titled(story, capitalize(story.subject)),
  intro: introScene(story, story.voice.opener, story.voice.welcome(story.brand)),
  body: story.changes.length ? changeScenes(story) : [...pointScenes(story, 500), ...mediaScenes(story, 400), ...fallback(story)],
  outro: outroScene(story),
});

/** Why it matters, the reveal, then the highlights. */
const launch: Template = (story) => {
  const [why, ...highlights] = story.points;
  const [hero, ...gallery] = story.media;
  const reveal = hero
    ? revealScene(story, mediaScene(story, hero, `Meet ${story.product}`, 2000))
    : { ...(story.changes[0] ? changeScene(story, story.changes[0], 1, 1) : subjectScene(story, 0)), priority: 2000 };
  return {
    title: titled(story, story.voice.hello(story.product).replace(/[.!]$/, '')),
    intro: introScene(story, story.voice.tease, story.voice.hello(story.product)),
    body: [
      ...(why ? [pointScene(story, why, 'Why it matters', 1900)] : []),
      reveal,
      ...highlights.map((p, i) => pointScene(story, p, 'Highlight', 1500 - i)),
      ...gallery.map((m, i) => mediaScene(story, m, `In action: ${capitalize(m.name)}`, 1200 - i)),
      ...underTheHood(story, hero ? story.changes : story.changes.slice(1), 1000),
    ],
    outro: outroScene(story),
  };
};

/** The problem, how the feature solves it step by step, and the result. */
const feature: Template = (story) => {
  const [problem, ...rest] = story.points;
  const result = rest.length >= 2 ? rest.pop() : undefined;
  const steps = [
    ...story.media.map((m) => (step: string, p: number) => mediaScene(story, m, `${step}: ${capitalize(m.name)}`, p)),
    ...story.changes.slice(0, 3).map((c) => (step: string, p: number) => ({ ...changeScene(story, c, 1, 1), title: `${step}: ${humanizePath(c.path)}`, priority: p })),
    ...rest.map((point) => (step: string, p: number) => pointScene(story, point, step, p)),
  ].map((make, i) => ({ ...make(`${story.voice.step} ${i + 1}`, 1500 - i), beat: `${story.voice.step} ${i + 1}` }));
  return {
    title: titled(story, capitalize(story.subject)),
    intro: introScene(story, capitalize(story.subject), story.voice.hello(story.subject)),
    body: [
      ...(problem ? [pointScene(story, problem, story.voice.problem, 1900)] : []),
      ...(steps.length ? steps : fallback(story)),
      ...(result ? [pointScene(story, result, story.voice.payoff, 1800)] : []),
    ],
    outro: outroScene(story),
  };
};

/** A roundup: one shot per area of the code, then the notes and media. */
const digest: Template = (story) => ({
  title: story.brand ? `${story.brand} digest: ${story.subject}` : `Digest: ${story.subject}`,
  intro: introScene(story, story.brand ? `This time at ${story.brand}` : 'The digest', story.voice.welcome(story.brand)),
  body: [
    ...byArea(story.changes).map(([area, files], i) => areaScene(story, area, files, 1000 - i)),
    ...pointScenes(story, 800),
    ...mediaScenes(story, 600),
    ...(story.changes.length || story.points.length || story.media.length ? [] : fallback(story)),
  ],
  outro: outroScene(story),
});

/** Follows the intent and the context's key sentences, in their order. */
const custom: Template = (story) => {
  const content = [...pointScenes(story, 1000), ...mediaScenes(story, 800)];
  return {
    title: titled(story, capitalize(story.subject)),
    intro: introScene(story, capitalize(story.subject), story.voice.hello(story.subject)),
    body: content.length ? content : story.changes.length ? changeScenes(story) : fallback(story),
    outro: outroScene(story),
  };
};

export const TEMPLATES: Record<Brief['format']['template'], Template> = { changelog, launch, feature, digest, custom };

/** The launch's reveal: the product by name, and what it claims in the brief's own words. */
function revealScene(story: Story, scene: Scene): Scene {
  if (!story.claim) return scene;
  const claim = capitalize(story.claim);
  return { ...scene, text: claim, shorter: { ...scene.shorter, text: [...phrasings(claim).slice(1), ...(scene.text ? [scene.text] : []), ...scene.shorter.text] }, gist: story.product };
}

function changeScenes(story: Story): Scene[] {
  return story.changes.map((file, i) => changeScene(story, file, i + 1, story.changes.length));
}

function pointScenes(story: Story, priority: number): Scene[] {
  return story.points.map((p, i) => pointScene(story, p, null, priority - i));
}

function mediaScenes(story: Story, priority: number): Scene[] {
  return story.media.map((m, i) => mediaScene(story, m, capitalize(m.name), priority - i));
}

function fallback(story: Story): Scene[] {
  return [subjectScene(story, 100)];
}

/** The top code changes as one shot, for templates where the code is not the star. */
function underTheHood(story: Story, changes: CodeFile[], priority: number): Scene[] {
  if (!changes.length) return [];
  const top = changes.slice(0, 5);
  return [{ ...areaScene(story, story.voice.underTheHood, top, priority), title: story.voice.underTheHood }];
}

/** Groups changes by the folder that names their area ("src/billing/x.ts" → "Billing"), best area first. */
function byArea(changes: CodeFile[]): [string, CodeFile[]][] {
  const groups = new Map<string, CodeFile[]>();
  for (const file of changes) {
    const folders = file.path.split(/[\\/]+/).filter(Boolean).slice(0, -1);
    const meaningful = folders.filter((f) => !/^(src|lib|app|apps|packages|services|pkg|internal|cmd|source)$/i.test(f));
    const area = meaningful[0] ? humanizePath(meaningful[0]) : 'General';
    groups.set(area, [...(groups.get(area) ?? []), file]);
  }
  return [...groups.entries()];
}
