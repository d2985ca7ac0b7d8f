/** Public addresses of delivered videos and projects (served by the gateway). */
export const shareUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}`;
export const shareVideoUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}/video.mp4`;
export const sharePosterUrl = (appUrl: string, exportId: string) => `${appUrl}/share/${exportId}/poster.jpg`;
export const editUrl = (appUrl: string, projectId: string) => `${appUrl}/projects/${projectId}`;

/**
 * Where one try's files of an export go in the blob store (`take` names the try): a try never
 * writes over another's, so the files an export was finished with never change.
 */
export function exportKeys(exportId: string, take: string) {
  return { video: `${exportFolder(exportId)}${take}/video.mp4`, poster: `${exportFolder(exportId)}${take}/poster.jpg` };
}

/** Every take of an export sits under this folder. */
export const exportFolder = (exportId: string) => `exports/${exportId}/`;

/** Where a render's uploaded images live in the blob store (`n` from 1, in order). */
export const renderImageKey = (renderId: string, n: number, extension: string) => `renders/${renderId}/images/${n}.${extension}`;
export const renderImagesPrefix = (renderId: string) => `renders/${renderId}/`;
