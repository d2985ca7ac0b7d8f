import { createCanvas, ImageData, type Canvas } from '../../canvas.ts';
import type { MediaPlacement } from '../../composition/schema.ts';
import type { Assets } from '../../media/assets.ts';
import { VideoFrames, type VideoInput } from '../../media/video-frames.ts';
import type { ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeInOutSine, easeOutCubic, lerp, progress } from '../../style/easing.ts';
import { Caption } from '../caption.ts';
import { markChanged, type Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import { fitRect, type Layout, type Rect } from '../layout.ts';
import type { Painter } from '../painter.ts';
import { PanelShadow } from '../shapes.ts';
import type { Theme } from '../theme.ts';
import { accentMark } from './accent-mark.ts';

/** Crossfade between the pictures of one scene. */
const CROSSFADE_MS = 450;
/** Videos are decoded a little larger than their card so the camera can push in. */
const VIDEO_HEADROOM = 1.15;

type Source = { picture: Canvas; advance?: () => Promise<void>; close?: () => void };
type Item = { placement: MediaPlacement; card: Rect; source: Source; shadow: PanelShadow; start: number; end: number };

/**
 * Pictures and videos in a rounded card with a soft shadow and a slow camera move
 * (Ken Burns); several share the scene in turn with a crossfade. Heading above, caption below.
 */
export function mediaPainter(plan: ScenePlan, layout: Layout, theme: Theme, assets: Assets, signal?: AbortSignal): Painter {
  const u = layout.unit;
  const radius = Math.round(22 * u);
  const heading = plan.heading ? new KineticText(plan.heading, theme.text) : null;
  const caption = plan.sub ? new Caption(plan.sub, layout, theme) : null;
  const { scene, enterAt, leaveAt } = plan;
  const placements = scene.media.filter((p) => assets.images.has(p.assetId) || assets.videos.has(p.assetId));
  const share = scene.durationMs / Math.max(1, placements.length);
  const shadow = { blur: 48 * u, color: theme.dark ? 'rgba(0, 0, 0, 0.55)' : 'rgba(15, 20, 30, 0.22)', offsetY: 18 * u };

  const items: Item[] = placements.map((placement, i) => {
    const image = assets.images.get(placement.assetId);
    const video = assets.videos.get(placement.assetId);
    const aspect = image ? image.width / image.height : (video?.width ?? 16) / (video?.height ?? 9);
    const card = fitRect(aspect, plan.panel);
    return {
      placement, card,
      source: image ? { picture: image } : videoSource(video ?? { file: '', format: 'mov', hdr: false }, card, signal),
      shadow: new PanelShadow(card, radius, shadow),
      start: i === 0 ? -Infinity : i * share - CROSSFADE_MS / 2,
      end: i === placements.length - 1 ? Infinity : (i + 1) * share + CROSSFADE_MS / 2,
    };
  });

  return {
    async draw(surface: Surface, t: number, alpha: number) {
      heading?.draw(surface, t, layout.content.x, layout.content.y, { enterAt, leaveAt }, alpha);
      const marked = heading ? { x: layout.content.x, y: layout.content.y } : (items[0]?.card ?? layout.content);
      accentMark(surface, layout, theme, { left: marked.x, top: marked.y, height: heading?.height ?? Math.round(120 * layout.unit) }, t, { enterAt, leaveAt }, alpha);
      const enter = easeOutCubic(progress(t, enterAt + 80, 650));
      const leave = easeInCubic(progress(t, leaveAt + 100, 400));
      for (const [i, item] of items.entries()) {
        if (t < item.start || t > item.end) continue;
        const fadeIn = i === 0 ? 1 : progress(t, item.start, CROSSFADE_MS);
        const opacity = alpha * enter * (1 - leave) * fadeIn;
        await item.source.advance?.();
        if (opacity <= 0.003) continue;
        drawCard(surface, item, easeInOutSine(progress(t, i * share, share)), 0.94 + 0.06 * enter, opacity, radius);
      }
      const last = items.at(-1);
      if (caption && last) caption.draw(surface, t, last.card.x + radius, last.card.y + last.card.height - radius, { enterAt: enterAt + 500, leaveAt }, alpha);
    },
    dispose() {
      for (const item of items) item.source.close?.();
    },
  };
}

function drawCard(surface: Surface, item: Item, move: number, scale: number, opacity: number, radius: number): void {
  const { card, shadow, placement: { camera } } = item;
  surface.save();
  surface.alpha = opacity;
  if (scale !== 1) {
    const cx = card.x + card.width / 2;
    const cy = card.y + card.height / 2;
    surface.translate(cx, cy);
    surface.scale(scale);
    surface.translate(-cx, -cy);
  }
  shadow.draw(surface);
  const zoom = lerp(camera.from.zoom, camera.to.zoom, move);
  const panX = lerp(camera.from.x, camera.to.x, move);
  const panY = lerp(camera.from.y, camera.to.y, move);
  const width = card.width * zoom;
  const height = card.height * zoom;
  surface.clipRoundRect(card.x, card.y, card.width, card.height, radius);
  surface.image(item.source.picture, card.x - ((width - card.width) / 2) * (1 + panX), card.y - ((height - card.height) / 2) * (1 + panY), width, height);
  surface.restore();
}

function videoSource(video: VideoInput, card: Rect, signal?: AbortSignal): Source {
  const width = even(card.width * VIDEO_HEADROOM);
  const height = even(card.height * VIDEO_HEADROOM);
  const picture = createCanvas(width, height);
  const ctx = picture.getContext('2d');
  const frames = new VideoFrames(video, width, height, signal);
  return {
    picture,
    async advance() {
      const frame = await frames.next();
      ctx.putImageData(new ImageData(new Uint8ClampedArray(frame.buffer, frame.byteOffset, frame.length), width, height), 0, 0);
      markChanged(picture);
    },
    close: () => frames.close(),
  };
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}
