export type PatchLine = { kind: ' ' | '+' | '-'; text: string };
export type Hunk = { oldStart: number; newStart: number; lines: PatchLine[] };

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The hunks of a unified diff; file headers and "\ No newline" markers are skipped. */
export function parsePatch(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  for (const line of patch.split('\n')) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = { oldStart: Number(header[1]), newStart: Number(header[2]), lines: [] };
      hunks.push(current);
    } else if (current && (line.startsWith(' ') || line.startsWith('+') || line.startsWith('-'))) {
      current.lines.push({ kind: line[0] as PatchLine['kind'], text: line.slice(1) });
    } else if (current && line === '') {
      // An empty context line whose leading space was trimmed by the sender.
      current.lines.push({ kind: ' ', text: '' });
    }
  }
  for (const hunk of hunks) {
    while (hunk.lines.at(-1)?.kind === ' ' && hunk.lines.at(-1)?.text === '') hunk.lines.pop();
  }
  return hunks;
}
