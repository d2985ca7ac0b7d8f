/** Public addresses of delivered videos and projects (served by the gateway). */
export const shareUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}`;
export const shareVideoUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}/video.mp4`;
export const sharePosterUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}/poster.jpg`;
export const editUrl = (appUrl: string, projectId: string) => `${appUrl}/projects/${projectId}`;

/** Where an export's files live in the blob store. */
export function exportKeys(exportId: string) {
  return { video: `exports/${exportId}/video.mp4`, poster: `exports/${exportId}/poster.jpg` };
}

/** Where a render's uploaded images live in the blob store (`n` from 1, in order). */
export const renderImageKey = (renderId: string, n: number, extension: string) => `renders/${renderId}/images/${n}.${extension}`;
export const renderImagesPrefix = (renderId: string) => `renders/${renderId}/`;
