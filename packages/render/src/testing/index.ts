/** `@vp/render/testing`: what tests of rendered videos and drawn frames use. */
export * from './inspect.ts';
export { backdropOf, contentBox, contentMask, decodePicture, psnr, rgbOf, safeAreaCoverage } from './craft.ts';
export { drawnLayouts, type DrawnScene } from './layout-check.ts';
export { stillRuns, type StillRun } from '../review/stills.ts';
export { framesEvery, type TimedFrame } from '../review/contact-sheet.ts';
export { samplePicture, startMediaServer } from './media-server.ts';
