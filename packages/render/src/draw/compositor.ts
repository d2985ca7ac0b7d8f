import { createCanvas, type Canvas, type SKRSContext2D } from '../canvas.ts';
import { FPS } from '../composition/frame-size.ts';
import type { Transition } from '../composition/schema.ts';
import type { Assets } from '../media/assets.ts';
import type { Plan, ScenePlan } from '../plan/plan.ts';
import { easeInOutCubic } from '../style/easing.ts';
import { Background } from './background.ts';
import { Chrome } from './chrome.ts';
import { DisplayList, type Surface } from './display-list.ts';
import type { Rect } from './layout.ts';
import type { Painter } from './painter.ts';
import { codePainter } from './scenes/code.ts';
import { mediaPainter } from './scenes/media.ts';
import { statementPainter } from './scenes/statement.ts';
import { titlePainter } from './scenes/title.ts';

type Phase = { role: 'in' | 'out' | 'hold'; kind: Transition['kind']; p: number };

/** Past this share of the frame, a changed box is drawn as the whole frame: about even in cost there. */
const FULL_REDRAW = 0.5;

/**
 * What changed since the frame before: nothing, everything (drawn in `canvas`), or one area,
 * drawn in a canvas of its own the size of the area.
 */
export type FrameChange = { kind: 'none' } | { kind: 'full' } | { kind: 'area'; area: Rect; canvas: Canvas };

/**
 * Draws frame after frame: the shared background, the scenes on screen (two during a
 * transition), then the chrome. Each frame is first recorded as a display list and compared
 * with the last one: an unchanged frame is not drawn at all; otherwise only the box around the
 * areas where the lists differ is drawn, in a canvas of its own (background, then the whole
 * list, which the canvas's edges cut to the box), unless the box covers most of the frame, which
 * is then drawn whole into `canvas`. A scene's layers are made when it first appears and released
 * when it has gone: at most two scenes are held.
 */
export class Compositor {
  readonly canvas: Canvas;
  private readonly ctx: SKRSContext2D;
  private readonly background: Background;
  private readonly chrome: Chrome;
  private readonly painters = new Map<number, Painter>();
  private previous: DisplayList | null = null;

  /**
   * `stills`: the frames asked for are far apart, each drawn on its own (a storyboard): a clip
   * then starts where a render would be in it at that frame, not at its first frame.
   */
  constructor(private readonly plan: Plan, private readonly assets: Assets, private readonly signal?: AbortSignal, private readonly stills = false) {
    const { width, height } = plan.composition;
    this.canvas = createCanvas(width, height);
    this.ctx = this.canvas.getContext('2d', { alpha: false });
    this.background = new Background(plan.layout, plan.theme);
    this.chrome = new Chrome(plan.layout, plan.theme);
  }

  /**
   * Draws a frame and says what changed. `whole` draws all of it into `canvas`, which otherwise
   * holds the last frame drawn whole: a frame that changed in one area is drawn in that area only.
   */
  async draw(frame: number, { whole = false } = {}): Promise<FrameChange> {
    const list = await this.record(frame);
    const previous = this.previous;
    this.previous = list;
    const areas = previous && !whole ? this.clipToFrame(list.changedBounds(previous)) : null;
    if (areas && !areas.length) return { kind: 'none' };
    const { width, height } = this.plan.composition;
    const area = areas && blockAligned(boundingBox(areas), width, height);
    if (!area || area.width * area.height > FULL_REDRAW * width * height) {
      this.background.draw(this.ctx);
      list.replay(this.ctx);
      return { kind: 'full' };
    }
    // A canvas of its own, the size of the area: the frame's canvas would first copy all of its
    // pixels in the canvas library (it keeps them from the last read-back), ~2.3 ms a 1080p frame.
    const canvas = createCanvas(area.width, area.height);
    const ctx = canvas.getContext('2d', { alpha: false });
    this.background.draw(ctx, area);
    list.replay(ctx, area);
    return { kind: 'area', area, canvas };
  }

  private clipToFrame(rects: Rect[]): Rect[] {
    const { width, height } = this.plan.composition;
    return rects.flatMap((rect) => {
      const x = Math.max(0, rect.x);
      const y = Math.max(0, rect.y);
      const w = Math.min(width, rect.x + rect.width) - x;
      const h = Math.min(height, rect.y + rect.height) - y;
      return w > 0 && h > 0 ? [{ x, y, width: w, height: h }] : [];
    });
  }

  dispose(): void {
    for (const index of [...this.painters.keys()]) this.release(index);
  }

  private async record(frame: number): Promise<DisplayList> {
    const t = (frame * 1000) / FPS;
    const list = new DisplayList();
    let bugAlpha = 0;
    let wipe: number | null = null;
    for (const scene of this.plan.scenes) {
      if (t >= scene.end + scene.outHalf) this.release(scene.index);
      if (t < scene.start - scene.inHalf || t >= scene.end + scene.outHalf) continue;
      const phase = phaseOf(scene, this.plan.scenes[scene.index + 1], t);
      const weight = phase.role === 'hold' ? 1 : phase.role === 'in' ? phase.p : 1 - phase.p;
      if (scene.scene.kind !== 'title' && scene.scene.kind !== 'outro') bugAlpha += weight;
      if (phase.kind === 'wipe' && phase.role !== 'hold') wipe = phase.p;
      const painter = this.painters.get(scene.index) ?? this.create(scene, t);
      await this.drawScene(list, painter, scene, phase, t);
    }
    if (wipe !== null) this.drawWipe(list, wipe);
    this.chrome.draw(list, Math.min(1, bugAlpha));
    return list;
  }

  private create(scene: ScenePlan, t: number): Painter {
    const { layout, theme } = this.plan;
    const kind = scene.scene.kind;
    const painter = kind === 'code' && scene.code ? codePainter(scene, layout, theme)
      : kind === 'media' ? mediaPainter(scene, layout, theme, this.assets, this.signal, this.stills ? (from) => this.framesDrawn(scene, t, from) : null)
        : kind === 'text' ? statementPainter(scene, layout, theme)
          : titlePainter(scene, layout, theme);
    this.painters.set(scene.index, painter);
    return painter;
  }

  /**
   * How many frames before the one at `t` a render draws the scene on (its painter called), from
   * the scene's local time `from`: a wipe shows the incoming scene only from its middle on.
   */
  private framesDrawn(scene: ScenePlan, t: number, from: number): number {
    const next = this.plan.scenes[scene.index + 1];
    const first = Math.ceil(((scene.start + Math.max(from, -scene.inHalf)) * FPS) / 1000);
    let count = 0;
    for (let frame = first; (frame * 1000) / FPS < t; frame++) {
      const phase = phaseOf(scene, next, (frame * 1000) / FPS);
      if (phase.kind !== 'wipe' || phase.role === 'hold' || (phase.role === 'in') === phase.p >= 0.5) count++;
    }
    return count;
  }

  private release(index: number): void {
    this.painters.get(index)?.dispose();
    this.painters.delete(index);
  }

  private async drawScene(surface: Surface, painter: Painter, scene: ScenePlan, phase: Phase, t: number): Promise<void> {
    const { width, height } = this.plan.composition;
    const local = t - scene.start;
    const e = easeInOutCubic(phase.p);
    if (phase.role === 'hold' || phase.kind === 'cut') return painter.draw(surface, local, 1);
    const incoming = phase.role === 'in';
    switch (phase.kind) {
      case 'fade':
        return painter.draw(surface, local, incoming ? e : 1 - e);
      case 'wipe':
        // The accent band covers the frame at the midpoint: the old scene shows before, the new one after.
        if (incoming === phase.p >= 0.5) return painter.draw(surface, local, 1);
        return;
      case 'slide':
      case 'zoom': {
        surface.save();
        if (phase.kind === 'slide') surface.translate(Math.round((incoming ? 1 - e : -e) * width * 0.22), 0);
        else {
          surface.translate(width / 2, height / 2);
          surface.scale(incoming ? 0.9 + 0.1 * e : 1 + 0.08 * e);
          surface.translate(-width / 2, -height / 2);
        }
        await painter.draw(surface, local, incoming ? e : 1 - e);
        surface.restore();
        return;
      }
    }
  }

  /** A band of the accent colour sweeps across: in from the left until it covers the frame, out to the right. */
  private drawWipe(surface: Surface, p: number): void {
    const { width, height } = this.plan.composition;
    const from = p < 0.5 ? 0 : width * easeInOutCubic((p - 0.5) * 2);
    const to = p < 0.5 ? width * easeInOutCubic(p * 2) : width;
    surface.fillRect(this.plan.theme.accent, Math.floor(from), 0, Math.ceil(to - from), height);
  }
}

function phaseOf(scene: ScenePlan, next: ScenePlan | undefined, t: number): Phase {
  if (scene.index > 0 && scene.inHalf > 0 && t < scene.start + scene.inHalf) {
    return { role: 'in', kind: scene.scene.transition.kind, p: (t - scene.start + scene.inHalf) / (2 * scene.inHalf) };
  }
  if (next && scene.outHalf > 0 && t >= scene.end - scene.outHalf) {
    return { role: 'out', kind: next.scene.transition.kind, p: (t - scene.end + scene.outHalf) / (2 * scene.outHalf) };
  }
  return { role: 'hold', kind: 'cut', p: 1 };
}

/** `area` grown to whole 2x2 blocks, the encoder's chroma samples. */
function blockAligned(area: Rect, width: number, height: number): Rect {
  const x = Math.floor(area.x / 2) * 2;
  const y = Math.floor(area.y / 2) * 2;
  return {
    x, y,
    width: Math.min(width, Math.ceil((area.x + area.width) / 2) * 2) - x,
    height: Math.min(height, Math.ceil((area.y + area.height) / 2) * 2) - y,
  };
}

function boundingBox(areas: Rect[]): Rect {
  const x = Math.min(...areas.map((a) => a.x));
  const y = Math.min(...areas.map((a) => a.y));
  return { x, y, width: Math.max(...areas.map((a) => a.x + a.width)) - x, height: Math.max(...areas.map((a) => a.y + a.height)) - y };
}
