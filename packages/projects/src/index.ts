export { editUrl, exportFolder, exportKeys, renderImageKey, renderImagesPrefix, sharePosterUrl, shareUrl, shareVideoUrl } from './urls.ts';
export { ensureProject, MAX_EXPORTS_UNDER_WAY, MAX_PROJECT_VERSIONS, projectWithHistory, saveVersion } from './projects.ts';
export { discardExport, ensureExport, failExport, finishExport, queueExport, startExport } from './exports.ts';
export {
  confirmRenderStarted, createRender, failRender, findRender, findUnconfirmedRenders, finishedRenderVideo, finishRender, giveUpUnclaimedRender, RENDER_NOT_STARTED, renderProgress, startRender, toRender,
  type NewRender, type RenderRecord,
} from './renders.ts';
export { checkRenderVideoSignature, renderVideoPath, signedRenderVideoUrl, type SignatureCheck } from './signed-url.ts';
export { deliveryOf } from './delivery.ts';
export { presentRender, readRender, requestRender, type OneCallRenderDeps, type RenderRequest } from './one-call-renders.ts';
export { EXPORT_NOT_STARTED, startQueuedExport } from './export-starts.ts';
export { deliveredProject, finishedSharedExport, type DeliveredProject } from './delivered.ts';
export { checkStillSignature, signedStillUrl, STILL_URL_TTL_MS, stillKey, type StillRef } from './storyboard-urls.ts';
