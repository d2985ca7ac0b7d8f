/** How the pages write lengths, sizes and times. */

export { formatBytes, formatDuration } from '@vp/net';

/** To the minute, in UTC: "2026-12-01 01:45 UTC". */
export const formatUtc = (date: Date | string) => new Date(date).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
