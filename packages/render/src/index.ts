export {
  Composition, COMPOSITION_VERSION, retime, SCENE_KINDS, TRANSITIONS,
  type AudioPlan, type BrandStyle, type CodeExcerpt, type CodeLine, type MediaAsset, type MediaPlacement, type Music,
  type Scene, type SceneKind, type Sfx, type Transition, type VoiceLine,
} from './composition/schema.ts';
export { ASPECT_SIZES, FPS, frameCount, RESOLUTION_SIZES, RESOLUTIONS, type FrameSize, type Resolution } from './composition/frame-size.ts';
export { composeProduction } from './composition/compose-production.ts';
export { composeImages, type ComposeImagesInput } from './composition/compose-images.ts';
export { renderComposition, type RenderOptions, type RenderResult } from './render.ts';
export type { ProgressReport } from './phases.ts';
export { reviewVideo, type VideoExpectation, type VideoReview } from './review/review.ts';
export {
  DEFAULT_MEDIA_LIMITS, publicMediaFetcher, type FetchedMedia, type FetchMedia, type MediaLimit, type MediaRole,
} from './media/fetch-media.ts';
export { CompositionError, MediaError, QualityError, RenderError, type QualityCheck } from './errors.ts';
export { checkRenderTools } from './tools.ts';
export { selfCheckRender } from './self-check.ts';
export { drawStoryboard, type Still, type StoryboardOptions } from './storyboard.ts';
export { contactSheet, framesEvery, type TimedFrame } from './review/contact-sheet.ts';
export { stillRuns, type StillRun } from './review/stills.ts';
/** The encoder settings, for measuring the encoder alone with the same ones. */
export { RGB_TO_BT709, X264, x264Args } from './encode/x264.ts';
