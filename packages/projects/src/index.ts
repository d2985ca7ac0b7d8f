export { editUrl, exportFolder, exportKeys, renderImageKey, renderImagesPrefix, sharePosterUrl, shareUrl, shareVideoUrl } from './urls.ts';
export { ensureProject, MAX_PROJECT_VERSIONS, projectWithHistory, saveVersion } from './projects.ts';
export { discardExport, ensureExport, failExport, finishExport, queueExport, startExport } from './exports.ts';
export { createRender, failRender, findRender, finishRender, renderProgress, startRender, toRender, type NewRender, type RenderRecord } from './renders.ts';
export { checkRenderVideoSignature, renderVideoPath, signedRenderVideoUrl, type SignatureCheck } from './signed-url.ts';
