import type { AudioPlan, MediaPlacement, Scene, SceneKind, Transition } from './schema.ts';

/** A scene before it is placed on the timeline. */
export type ScenePart = Omit<Scene, 'startMs' | 'transition'>;

/** Each kind of scene has a favourite way in; a repeat of the previous one takes the next in line. */
const PREFERRED: Record<SceneKind, Transition['kind'][]> = {
  title: ['fade', 'zoom'],
  text: ['zoom', 'slide', 'fade'],
  media: ['wipe', 'slide', 'zoom'],
  code: ['slide', 'wipe', 'zoom'],
  outro: ['fade', 'zoom'],
};

const TRANSITION_MS = 600;

/** The transition into a scene: varied, and never longer than 30% of either neighbour. */
export function transitionInto(kind: SceneKind, previous: Transition['kind'] | null, neighbours: [number, number]): Transition {
  const options = PREFERRED[kind];
  const choice = options.find((option) => option !== previous) ?? options[0] ?? 'fade';
  return { kind: choice, durationMs: transitionMsBetween(neighbours) };
}

/** How long a transition between scenes of these lengths takes. */
export function transitionMsBetween(neighbours: [number, number]): number {
  return Math.round(Math.min(TRANSITION_MS, 0.3 * Math.min(...neighbours)) / 10) * 10;
}

/** Voice lines start a little after their scene's cut, once the picture has settled. */
const VOICE_OFFSET_MS = 250;

/** Where a scene's voiceover line starts, from the scene's start: after the transition into it. */
export function voiceOffsetMs(scene: Scene): number {
  return Math.max(VOICE_OFFSET_MS, Math.round(scene.transition.durationMs / 2) + 100);
}

/** A whoosh on every transition that takes time, loudest on the cut, and a soft impact when the outro lands. */
export function transitionEffects(scenes: Scene[]): AudioPlan['sfx'] {
  return scenes.flatMap((scene, i) => {
    const effects: AudioPlan['sfx'] = [];
    if (i > 0 && scene.transition.kind !== 'cut' && scene.transition.durationMs > 0) {
      // At the cut, the transition's middle (it runs half before, half after): the mix puts the sound's peak on its cue.
      effects.push({ kind: 'whoosh', sceneId: scene.id, offsetMs: 0, gainDb: -8 });
    }
    if (scene.kind === 'outro' || scene.kind === 'title') {
      effects.push({ kind: 'impact', sceneId: scene.id, offsetMs: Math.round(scene.transition.durationMs / 2) + 150, gainDb: -10 });
    }
    return effects;
  });
}

/** Scenes end to end, each with its transition in (the first has none), and their total length. */
export function placeOnTimeline(parts: ScenePart[]): { scenes: Scene[]; durationMs: number } {
  let startMs = 0;
  const scenes = parts.reduce<Scene[]>((placed, part) => {
    const before = placed.at(-1);
    const transition = before ? transitionInto(part.kind, before.transition.kind, [before.durationMs, part.durationMs]) : { kind: 'cut' as const, durationMs: 0 };
    placed.push({ ...part, startMs, transition });
    startMs += part.durationMs;
    return placed;
  }, []);
  return { scenes, durationMs: startMs };
}

const MOVES: MediaPlacement['camera'][] = [
  { from: { zoom: 1, x: 0, y: 0 }, to: { zoom: 1.12, x: 0.3, y: -0.2 } },
  { from: { zoom: 1.14, x: -0.4, y: 0.2 }, to: { zoom: 1.02, x: 0.2, y: 0 } },
  { from: { zoom: 1.06, x: 0.5, y: 0 }, to: { zoom: 1.1, x: -0.5, y: 0.1 } },
  { from: { zoom: 1.12, x: 0, y: 0.4 }, to: { zoom: 1, x: 0, y: -0.2 } },
];

/** A slow camera move over a picture, alternating zoom in, zoom out and pans. */
export function cameraMove(index: number): MediaPlacement['camera'] {
  return MOVES[index % MOVES.length] as MediaPlacement['camera'];
}
