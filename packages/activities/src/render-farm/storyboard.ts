import { Context } from '@temporalio/activity';
import type { BlobStore } from '@vp/blobs';
import { Brief, type Pitch } from '@vp/contracts';
import { Prisma, type Db } from '@vp/db';
import { signedStillUrl, stillKey } from '@vp/projects';
import { composeProduction, drawStoryboard } from '@vp/render';
import type { StoryboardActivities } from '@vp/workflows/definitions';
import { mediaFetcher } from './media.ts';

/** Stills are drawn this wide (the height follows the video's shape): enough for an e-mail and a page. */
const STILL_WIDTH = 640;

export type StoryboardDeps = {
  db: Db;
  blobs: BlobStore;
  workDir: string;
  allowPrivateUrls: boolean;
  /** Where the stills are served (the gateway's BASE_URL) and the secret their addresses are signed with. */
  baseUrl: string;
  urlSecret: string;
  now?: () => Date;
};

/**
 * The storyboard: one still per shot of a pitch version, each the frame the video will show at
 * that shot's key moment, drawn by the renderer itself (no render, no encoding) and stored in
 * the blob store; each shot of the stored pitch then carries its signed `previewUrl`. Drawn
 * again on a retry (the same keys are overwritten), and not at all once every shot has one.
 */
export function createStoryboardActivities(deps: StoryboardDeps): StoryboardActivities {
  return {
    async drawStoryboard({ productionId, pitchVersion }) {
      const production = await deps.db.production.findUnique({ where: { id: productionId }, include: { pitches: { where: { version: pitchVersion } } } });
      const row = production?.pitches[0];
      if (!production || !row) return { stills: 0 };
      const pitch = row.pitch as Pitch;
      if (pitch.verdict === 'skip' || pitch.shots.every((shot) => shot.previewUrl)) return { stills: 0 };
      const context = Context.current();
      const composition = composeProduction({ brief: Brief.parse(production.brief), pitch });
      const stills = await drawStoryboard(composition, {
        workDir: deps.workDir, width: STILL_WIDTH, signal: context.cancellationSignal,
        fetchMedia: mediaFetcher({ blobs: deps.blobs, allowPrivate: deps.allowPrivateUrls }),
      });
      const now = deps.now?.() ?? new Date();
      const previews = new Map<number, string>();
      for (const still of stills) {
        // Shot N is scene `shot-N`; the cut-ins a code shot makes to its pictures have no shot of their own.
        const shotIndex = /^shot-(\d+)$/.exec(still.sceneId)?.[1];
        if (shotIndex === undefined) continue;
        const ref = { productionId, pitchVersion, shotIndex: Number(shotIndex) };
        context.heartbeat();
        await deps.blobs.put(stillKey(ref), still.image, { contentType: still.mime, signal: context.cancellationSignal });
        previews.set(ref.shotIndex, signedStillUrl({ baseUrl: deps.baseUrl, secret: deps.urlSecret, now }, ref));
      }
      const shots = pitch.shots.map((shot) => (previews.has(shot.index) ? { ...shot, previewUrl: previews.get(shot.index) } : shot));
      await deps.db.pitchVersion.update({
        where: { productionId_version: { productionId, version: pitchVersion } },
        data: { pitch: { ...pitch, shots } as unknown as Prisma.InputJsonValue },
      });
      return { stills: previews.size };
    },
  };
}
