import { Prisma, type Db, type Export } from '@vp/db';

/**
 * The project of a production or a render with its first version. The first try composes
 * and stores it; a retry finds it and renders exactly what was stored.
 */
export async function ensureProject(
  db: Db,
  input: { id: string; workspaceId: string; productionId: string | null; title: string; compose: () => unknown },
): Promise<{ version: number; composition: unknown }> {
  const stored = await db.projectVersion.findUnique({ where: { projectId_version: { projectId: input.id, version: 1 } } });
  if (stored) return { version: 1, composition: stored.composition };
  const composition = input.compose() as Prisma.InputJsonValue;
  await db.$transaction([
    db.project.createMany({
      data: [{ id: input.id, workspaceId: input.workspaceId, productionId: input.productionId, title: input.title.slice(0, 200) }],
      skipDuplicates: true,
    }),
    db.projectVersion.createMany({ data: [{ projectId: input.id, version: 1, composition }], skipDuplicates: true }),
  ]);
  // Two tries racing (a worker thought dead, still running): the first stored version wins.
  const version = await db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId: input.id, version: 1 } } });
  return { version: 1, composition: version.composition };
}

/** A project with its versions (newest first) and each version's exports (newest first). */
export function projectWithHistory(db: Db, projectId: string) {
  return db.project.findUnique({
    where: { id: projectId },
    include: {
      versions: { orderBy: { version: 'desc' }, include: { exports: { orderBy: { createdAt: 'desc' } } } },
      production: { select: { id: true, stage: true } },
    },
  });
}

/** Each version is a render's worth of work, and the project's page lists them all. */
export const MAX_PROJECT_VERSIONS = 50;

/**
 * Edits and re-exports are free (the credits paid for version 1) and share the render farm
 * with paid productions: a project has at most this many exports queued or rendering, one
 * being made and the next waiting.
 */
export const MAX_EXPORTS_UNDER_WAY = 2;

type Tx = Prisma.TransactionClient;

/** Holds the project's row until the transaction ends: its checks and writes are one at a time. */
export async function lockProject(tx: Tx, projectId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
}

export const exportsUnderWay = (tx: Tx, projectId: string) => tx.export.count({ where: { projectId, status: { in: ['queued', 'rendering'] } } });

/**
 * Saves a project's next version, edited from `baseVersion`, with its export queued beside it
 * (one transaction: a version is never left without the export it was saved for). `stale`
 * when another version was saved since: an edit never lands on a version its author did not
 * see; `busy` while the project has as many exports under way as it may. The project's row is
 * locked while checking, so of two saves from one version, one wins.
 */
export async function saveVersion(
  db: Db,
  input: { projectId: string; baseVersion: number; composition: unknown; exportId: string },
): Promise<Export | 'stale' | 'busy'> {
  return db.$transaction(async (tx) => {
    await lockProject(tx, input.projectId);
    const newest = await tx.projectVersion.findFirst({ where: { projectId: input.projectId }, orderBy: { version: 'desc' }, select: { version: true } });
    if (newest?.version !== input.baseVersion) return 'stale';
    if (await exportsUnderWay(tx, input.projectId) >= MAX_EXPORTS_UNDER_WAY) return 'busy';
    const version = input.baseVersion + 1;
    await tx.projectVersion.create({ data: { projectId: input.projectId, version, composition: input.composition as Prisma.InputJsonValue } });
    return tx.export.create({ data: { id: input.exportId, projectId: input.projectId, version } });
  });
}
