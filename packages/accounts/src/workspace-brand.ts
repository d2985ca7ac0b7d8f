import { Brand, DomainError, type Caller } from '@vp/contracts';
import { Prisma, type Db } from '@vp/db';
import { memberOf, writerOf } from './access.ts';

export const BRAND_FIELDS = ['name', 'logoUrl', 'primaryColor', 'backgroundColor', 'fontFamily', 'tone'] as const;
export type BrandInput = Partial<Record<(typeof BRAND_FIELDS)[number], string>>;

/** The workspace's saved brand (every field null when none was saved); any member may read it. */
export async function workspaceBrand(db: Db, caller: Caller, workspaceId: string): Promise<Brand> {
  const workspace = await memberOf(db, caller, workspaceId);
  const row = await db.workspace.findUniqueOrThrow({ where: { id: workspace.workspaceId }, select: { brand: true } });
  return Brand.parse(row.brand ?? {});
}

/**
 * Owners and editors save the brand new productions start from: the brief's brand fields, with
 * its bounds (an empty field is none).
 */
export async function saveBrand(db: Db, caller: Caller, input: { workspaceId: string; brand: BrandInput }): Promise<Brand> {
  const workspace = await writerOf(db, caller, input.workspaceId);
  const given = Object.fromEntries(BRAND_FIELDS.map((field) => [field, input.brand[field]?.trim() || null]));
  const parsed = Brand.safeParse(given);
  const nul = BRAND_FIELDS.find((field) => given[field]?.includes('\u0000'));
  if (nul) throw DomainError.invalid(nul, 'Text may not contain the NUL character.');
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    throw new DomainError('invalid', issues.map((issue) => `${issue.path}: ${issue.message}`).join(' '), { issues });
  }
  await db.workspace.update({ where: { id: workspace.workspaceId }, data: { brand: parsed.data as Prisma.InputJsonValue } });
  return parsed.data;
}
