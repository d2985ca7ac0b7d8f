import type { Canvas, SKRSContext2D } from '../canvas.ts';
import type { Rect } from './layout.ts';

/**
 * What a painter may do to a frame: place layers, fill rectangles, clip to a rounded
 * rectangle, move and scale. Every call is recorded, not drawn: the compositor compares
 * a frame's list with the one before, redraws only what changed, and skips a frame that
 * did not change at all.
 */
export interface Surface {
  /** Opacity applied to what follows until changed (or restored). */
  alpha: number;
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  scale(factor: number): void;
  image(source: Canvas, dx: number, dy: number, dw?: number, dh?: number): void;
  imageRegion(source: Canvas, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
  fillRect(color: string, x: number, y: number, width: number, height: number): void;
  fillRoundRect(color: string, x: number, y: number, width: number, height: number, radius: number): void;
  clipRoundRect(x: number, y: number, width: number, height: number, radius: number): void;
}

type Matrix = { scale: number; x: number; y: number };
type Command =
  | { op: 'image'; source: Canvas; version: number; args: number[]; alpha: number; matrix: Matrix }
  | { op: 'rect' | 'roundRect'; color: string; args: number[]; alpha: number; matrix: Matrix }
  | { op: 'clip'; args: number[]; matrix: Matrix }
  | { op: 'save' | 'restore' };

/** Canvases whose pixels change in place (video frames) carry a version, so a new frame is not mistaken for the old. */
const versions = new WeakMap<Canvas, number>();
export function markChanged(canvas: Canvas): void {
  versions.set(canvas, (versions.get(canvas) ?? 0) + 1);
}

/**
 * Layers drawn by replaying what was drawn on them (`drawCanvas`) instead of copying their
 * pixels. For tall layers of text, such as a file's code: as pixels, the first draw of the
 * code's 1768 x 2652 layer after each read-back of the frame cost ~12 ms in the canvas library;
 * replayed, only the lines inside the frame are rasterised, and the pixels are the same to within
 * rounding. Only for layers of text and shapes: a picture or a blur in the recording would be
 * resampled or blurred again on every frame.
 */
const replayed = new WeakSet<Canvas>();
export function drawAsRecording(canvas: Canvas): Canvas {
  replayed.add(canvas);
  return canvas;
}

/** Antialiasing reaches a pixel past a shape's edge. */
const BLEED = 3;

export class DisplayList implements Surface {
  alpha = 1;
  private readonly commands: Command[] = [];
  private matrix: Matrix = { scale: 1, x: 0, y: 0 };
  private readonly stack: { matrix: Matrix; alpha: number }[] = [];

  save(): void {
    this.stack.push({ matrix: this.matrix, alpha: this.alpha });
    this.commands.push({ op: 'save' });
  }

  restore(): void {
    const state = this.stack.pop();
    if (state) ({ matrix: this.matrix, alpha: this.alpha } = state);
    this.commands.push({ op: 'restore' });
  }

  translate(x: number, y: number): void {
    const { scale, x: tx, y: ty } = this.matrix;
    this.matrix = { scale, x: tx + x * scale, y: ty + y * scale };
  }

  scale(factor: number): void {
    this.matrix = { ...this.matrix, scale: this.matrix.scale * factor };
  }

  image(source: Canvas, dx: number, dy: number, dw = source.width, dh = source.height): void {
    this.imageRegion(source, 0, 0, source.width, source.height, dx, dy, dw, dh);
  }

  imageRegion(source: Canvas, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void {
    if (this.alpha <= 0.002 || sw <= 0 || sh <= 0) return;
    this.commands.push({ op: 'image', source, version: versions.get(source) ?? 0, args: [sx, sy, sw, sh, dx, dy, dw, dh], alpha: this.alpha, matrix: this.matrix });
  }

  fillRect(color: string, x: number, y: number, width: number, height: number): void {
    if (this.alpha <= 0.002 || width <= 0 || height <= 0) return;
    this.commands.push({ op: 'rect', color, args: [x, y, width, height], alpha: this.alpha, matrix: this.matrix });
  }

  fillRoundRect(color: string, x: number, y: number, width: number, height: number, radius: number): void {
    if (this.alpha <= 0.002 || width <= 0 || height <= 0) return;
    this.commands.push({ op: 'roundRect', color, args: [x, y, width, height, radius], alpha: this.alpha, matrix: this.matrix });
  }

  clipRoundRect(x: number, y: number, width: number, height: number, radius: number): void {
    this.commands.push({ op: 'clip', args: [x, y, width, height, radius], matrix: this.matrix });
  }

  /** True when drawing this list gives exactly the pixels `other` gave. */
  sameAs(other: DisplayList | null): boolean {
    return !!other && other.commands.length === this.commands.length && this.changedBounds(other).length === 0;
  }

  /**
   * The frame areas where this list and `before` differ, in frame pixels, each grown by the
   * antialiasing bleed: the bounds of every command that is not the same at the same place in
   * both lists. A command inserted early shifts the rest, which then all count as changed:
   * more to redraw, never a wrong pixel.
   */
  changedBounds(before: DisplayList): Rect[] {
    const rects: Rect[] = [];
    const length = Math.max(this.commands.length, before.commands.length);
    for (let i = 0; i < length; i++) {
      const mine = this.commands[i];
      const theirs = before.commands[i];
      if (mine && theirs && sameCommand(mine, theirs)) continue;
      for (const command of [mine, theirs]) {
        const rect = command && boundsOf(command);
        if (rect) rects.push(rect);
      }
    }
    return rects;
  }

  /** Draws the recorded commands onto a real canvas context whose top-left corner is `origin` in the frame. */
  replay(ctx: SKRSContext2D, origin: { x: number; y: number } = { x: 0, y: 0 }): void {
    for (const command of this.commands) {
      switch (command.op) {
        case 'save':
          ctx.save();
          break;
        case 'restore':
          ctx.restore();
          break;
        case 'clip': {
          apply(ctx, command.matrix, origin);
          const [x, y, width, height, radius] = command.args as [number, number, number, number, number];
          ctx.beginPath();
          ctx.roundRect(x, y, width, height, radius);
          ctx.clip();
          break;
        }
        case 'image': {
          apply(ctx, command.matrix, origin);
          ctx.globalAlpha = command.alpha;
          const [sx, sy, sw, sh, dx, dy, dw, dh] = command.args as [number, number, number, number, number, number, number, number];
          if (replayed.has(command.source)) ctx.drawCanvas(command.source, sx, sy, sw, sh, dx, dy, dw, dh);
          else ctx.drawImage(command.source, sx, sy, sw, sh, dx, dy, dw, dh);
          break;
        }
        case 'rect':
        case 'roundRect': {
          apply(ctx, command.matrix, origin);
          ctx.globalAlpha = command.alpha;
          ctx.fillStyle = command.color;
          const [x, y, width, height, radius] = command.args as [number, number, number, number, number];
          if (command.op === 'rect') ctx.fillRect(x, y, width, height);
          else {
            ctx.beginPath();
            ctx.roundRect(x, y, width, height, radius);
            ctx.fill();
          }
          break;
        }
      }
    }
    ctx.globalAlpha = 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
}

function boundsOf(command: Command): Rect | null {
  if (!('matrix' in command)) return null;
  const [x = 0, y = 0, width = 0, height = 0] = command.op === 'image' ? command.args.slice(4) : command.args;
  const { scale, x: tx, y: ty } = command.matrix;
  return {
    x: Math.floor(tx + x * scale) - BLEED,
    y: Math.floor(ty + y * scale) - BLEED,
    width: Math.ceil(width * scale) + 2 * BLEED + 1,
    height: Math.ceil(height * scale) + 2 * BLEED + 1,
  };
}

function apply(ctx: SKRSContext2D, { scale, x, y }: Matrix, origin: { x: number; y: number }): void {
  ctx.setTransform(scale, 0, 0, scale, x - origin.x, y - origin.y);
}

function sameCommand(a: Command, b: Command): boolean {
  if (a.op !== b.op) return false;
  if (a.op === 'save' || a.op === 'restore') return true;
  const x = a as Partial<Record<string, unknown>> & { args: number[]; matrix: Matrix };
  const y = b as Partial<Record<string, unknown>> & { args: number[]; matrix: Matrix };
  return x.alpha === y.alpha && x.source === y.source && x.version === y.version && x.color === y.color
    && x.matrix.scale === y.matrix.scale && x.matrix.x === y.matrix.x && x.matrix.y === y.matrix.y
    && x.args.length === y.args.length && x.args.every((value, i) => value === y.args[i]);
}
