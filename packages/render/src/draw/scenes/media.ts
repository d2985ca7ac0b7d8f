import { createCanvas, ImageData, type Canvas } from '../../canvas.ts';
import { FPS } from '../../composition/frame-size.ts';
import type { MediaPlacement } from '../../composition/schema.ts';
import type { Assets } from '../../media/assets.ts';
import { VideoFrames, type VideoInput } from '../../media/video-frames.ts';
import type { ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeInOutSine, easeOutCubic, lerp, progress } from '../../style/easing.ts';
import { Caption } from '../caption.ts';
import { markChanged, type Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import { type Layout, type Rect } from '../layout.ts';
import type { Painter } from '../painter.ts';
import { cardRadius } from '../../layout/arrange.ts';
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
 * (Ken Burns); several share the scene in turn with a crossfade. Heading above, caption on the
 * card (wide frames) or below it (square and tall ones), where the plan put them.
 */
export function mediaPainter(plan: ScenePlan, layout: Layout, theme: Theme, assets: Assets, signal?: AbortSignal, framesBefore: ((fromMs: number) => number) | null = null): Painter {
  const u = layout.unit;
  const radius = cardRadius(layout, 'media');
  const heading = plan.heading ? new KineticText(plan.heading, theme.text) : null;
  const caption = plan.sub ? new Caption(plan.sub, layout, theme) : null;
  const { scene, enterAt, leaveAt, regions } = plan;
  const placements = scene.media.filter((p) => assets.images.has(p.assetId) || assets.videos.has(p.assetId));
  const share = scene.durationMs / Math.max(1, placements.length);
  const shadow = { blur: 48 * u, color: theme.dark ? 'rgba(0, 0, 0, 0.55)' : 'rgba(15, 20, 30, 0.22)', offsetY: 18 * u };

  // A still drawn alone shows what a render shows then: each clip as far in as the frames drawn
  // since its turn began took it (`framesBefore`, counted by the compositor).
  const skipMs = (from: number) => (framesBefore ? (framesBefore(from) * 1000) / FPS : 0);
  const items: Item[] = placements.map((placement, i) => {
    const image = assets.images.get(placement.assetId);
    const video = assets.videos.get(placement.assetId);
    const card = plan.cards[scene.media.indexOf(placement)] ?? plan.panel;
    return {
      placement, card,
      source: image ? { picture: image } : videoSource(video ?? { file: '', format: 'mov', hdr: false }, card, signal, skipMs(i === 0 ? -Infinity : i * share - CROSSFADE_MS / 2)),
      shadow: new PanelShadow(card, radius, shadow),
      start: i === 0 ? -Infinity : i * share - CROSSFADE_MS / 2,
      end: i === placements.length - 1 ? Infinity : (i + 1) * share + CROSSFADE_MS / 2,
    };
  });

  return {
    async draw(surface: Surface, t: number, alpha: number) {
      if (heading && regions.heading) heading.draw(surface, t, regions.heading.x, regions.heading.y, { enterAt, leaveAt }, alpha);
      if (regions.mark) accentMark(surface, theme, regions.mark, t, { enterAt, leaveAt }, alpha);
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
      if (caption && regions.caption) {
        const { x, y, height } = regions.caption;
        caption.draw(surface, t, x, y + height, { enterAt: enterAt + 500, leaveAt }, alpha);
      }
    },
    dispose() {
      for (const item of items) item.source.close?.();
    },
  };
}

/** The picture in its card: as large as covers the card, moved by the camera, cut to the card's rounded corners. */
function drawCard(surface: Surface, item: Item, move: number, scale: number, opacity: number, radius: number): void {
  const { card, shadow, placement: { camera }, source: { picture } } = item;
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
  const cover = Math.max(card.width / picture.width, card.height / picture.height) * zoom;
  const width = picture.width * cover;
  const height = picture.height * cover;
  surface.clipRoundRect(card.x, card.y, card.width, card.height, radius);
  surface.image(picture, card.x - ((width - card.width) / 2) * (1 + panX), card.y - ((height - card.height) / 2) * (1 + panY), width, height);
  surface.restore();
}

function videoSource(video: VideoInput, card: Rect, signal: AbortSignal | undefined, startMs: number): Source {
  const width = even(card.width * VIDEO_HEADROOM);
  const height = even(card.height * VIDEO_HEADROOM);
  const picture = createCanvas(width, height);
  const ctx = picture.getContext('2d');
  const frames = new VideoFrames(video, width, height, signal, startMs);
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
