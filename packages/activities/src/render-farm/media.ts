import type { BlobStore } from '@vp/blobs';
import { contentTypeOf } from '@vp/blobs';
import { UnsupportedUrlError } from '@vp/net';
import { publicMediaFetcher, type FetchMedia } from '@vp/render';

/**
 * How a render reads its media: http(s) from public addresses only (private ones too when the
 * server allows them, in development), and `blob:<key>` from the blob store — only the keys under
 * `blobPrefix`, a render's own uploads. A brief can never name another render's files: that is
 * final; a store that fails to answer is not (the renderer takes it as worth another try).
 */
export function mediaFetcher(options: { blobs: BlobStore; allowPrivate: boolean; blobPrefix?: string }): FetchMedia {
  const web = publicMediaFetcher({ allowPrivate: options.allowPrivate });
  return async (url, limits) => {
    if (!url.startsWith('blob:')) return web(url, limits);
    const key = url.slice('blob:'.length);
    if (!options.blobPrefix || !key.startsWith(options.blobPrefix)) throw new UnsupportedUrlError('it is not one of this render\'s uploads', url);
    return { status: 200, contentType: contentTypeOf(key), body: await options.blobs.get(key) };
  };
}
