import type { BlobStore } from '@vp/blobs';
import type { Db } from '@vp/db';
import type { ReportProgress } from './progress-reports.ts';

export type RenderFarmDeps = {
  db: Db;
  blobs: BlobStore;
  /** Where renders write their intermediate files (removed after each try; `sweepWorkDir` removes what a killed worker left). */
  workDir: string;
  /** RENDER_STALL_MS: a render that reports no phase or progress for this long is stopped, and the try fails (retryable). */
  stallMs: number;
  appUrl: string;
  /** Development only: media on private and loopback addresses. */
  allowPrivateUrls: boolean;
  /** Where a production's render reports its phases: to the production's workflow, which records them. */
  reportProgress: ReportProgress;
};
