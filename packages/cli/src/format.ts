import type { Production, ProductionDetail } from '@vp/sdk';

/** A production in one line: id, stage, when, intent. */
export function productionLine(production: Production): string {
  const intent = production.brief.intent.replace(/\s+/g, ' ');
  return `${production.id}  ${production.stage.padEnd(13)} ${production.createdAt.slice(0, 16).replace('T', ' ')}  ${intent.length > 60 ? `${intent.slice(0, 59)}…` : intent}`;
}

/** A production as a person reads it: where it stands, its pitch, its delivery. */
export function productionText(detail: ProductionDetail): string {
  const { production, queue, pitchMarkdown } = detail;
  const lines = [`${production.brief.intent}`, `  id:     ${production.id}`, `  stage:  ${production.stage}${queue?.lastProgress ? ` (${queue.lastProgress})` : ''}`];
  if (production.pageUrl) lines.push(`  page:   ${production.pageUrl}`);
  if (production.creditsCharged) lines.push(`  credits charged: ${production.creditsCharged}`);
  if (production.error) lines.push(`  error:  ${production.error}`);
  if (production.delivery) lines.push(`  share:  ${production.delivery.shareUrl}`, `  edit:   ${production.delivery.editUrl}`);
  if (pitchMarkdown) lines.push('', pitchMarkdown.trim());
  return lines.join('\n');
}

const PHASES = ['preparing', 'planning', 'building', 'reviewing', 'polishing', 'exporting'];

/** The live view's line: the stage, and while the video is made its phase, a percentage and the words. */
export function progressText({ production, queue }: ProductionDetail): string {
  if (production.stage === 'delivered') return 'delivered 100%';
  const phase = queue?.phase;
  if (!phase) return `${production.stage}${queue?.lastProgress ? `: ${queue.lastProgress}` : '…'}`;
  const percent = Math.round((PHASES.indexOf(phase) / PHASES.length) * 100);
  return `${production.stage} · ${phase} ${percent}%${queue?.lastProgress ? ` · ${queue.lastProgress}` : ''}`;
}
