/** How the pages write lengths, sizes and times. */

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export { formatBytes } from '@vp/net';

/** To the minute, in UTC: "2026-12-01 01:45 UTC". */
export const formatUtc = (date: Date | string) => new Date(date).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
