import type { CodeFile } from '@vp/contracts';
import type { CodeExcerpt, CodeLine } from '../composition/schema.ts';
import { shorten } from '../style/characters.ts';
import { languageOf } from './language.ts';
import { parsePatch, type Hunk } from './patch.ts';

/** Lines kept for the editor: enough to scroll through, small enough to draw fast. */
export const EXCERPT_LINES = 120;
/** Lines of the file shown above the first change, so the editor has somewhere to scroll from. */
const LEAD_IN = 40;
const MAX_LINE_LENGTH = 240;

/**
 * The lines a code scene shows, with additions and deletions marked: from the patch when
 * there is one (merged into the full source when it was sent), else from the file's status.
 */
export function excerptOf(file: CodeFile): CodeExcerpt {
  const hunks = file.patch ? parsePatch(file.patch) : [];
  const sourceLines = splitLines(file.source);
  // A removed file's source can only be the old file: every line of it goes, none stays as context.
  const emptied = file.status === 'removed' || hunks.some((hunk) => hunk.newStart === 0);
  let lines: CodeLine[];
  if (emptied && sourceLines.length) lines = sourceLines.map((text, i) => ({ number: i + 1, text, change: 'removed' }));
  else if (hunks.length && sourceLines.length) lines = mergeHunks(sourceLines, hunks);
  else if (hunks.length) lines = hunkLines(hunks);
  else lines = sourceLines.map((text, i) => ({ number: i + 1, text, change: statusChange(file.status) }));
  const base = {
    path: file.path, language: languageOf(file.path), status: file.status,
    additions: file.additions, deletions: file.deletions,
  };
  if (!lines.length) {
    return { ...base, lines: [], focusLine: 0, note: file.digest ?? `${file.additions} additions, ${file.deletions} deletions` };
  }
  // Only the lines kept are tidied: a source of 200,000 characters has as many lines as that.
  const kept = window(lines);
  return { ...base, lines: kept.lines.map(tidy), focusLine: kept.focusLine, note: null };
}

function splitLines(source: string): string[] {
  if (!source) return [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function statusChange(status: CodeFile['status']): CodeLine['change'] {
  if (status === 'added') return 'added';
  if (status === 'removed') return 'removed';
  return 'context';
}

/** The new file's lines with each hunk's removed lines put back and its added lines marked. */
function mergeHunks(source: string[], hunks: Hunk[]): CodeLine[] {
  const lines: CodeLine[] = [];
  let next = 1; // next line of the new file to emit
  for (const hunk of [...hunks].sort((a, b) => a.newStart - b.newStart)) {
    for (; next < hunk.newStart && next <= source.length; next++) lines.push({ number: next, text: source[next - 1] ?? '', change: 'context' });
    // A source shorter than the patch ran out before the hunk: the lines between are unknown.
    if (next < hunk.newStart) {
      lines.push({ number: null, text: '⋯', change: 'context' });
      next = hunk.newStart;
    }
    let oldLine = hunk.oldStart;
    for (const line of hunk.lines) {
      if (line.kind === '-') lines.push({ number: oldLine++, text: line.text, change: 'removed' });
      else {
        lines.push({ number: next, text: source[next - 1] ?? line.text, change: line.kind === '+' ? 'added' : 'context' });
        next++;
        if (line.kind === ' ') oldLine++;
      }
    }
  }
  for (; next <= source.length; next++) lines.push({ number: next, text: source[next - 1] ?? '', change: 'context' });
  return lines;
}

/** Only the hunks, when the source was not sent; a gap line separates them. */
function hunkLines(hunks: Hunk[]): CodeLine[] {
  const lines: CodeLine[] = [];
  hunks.forEach((hunk, index) => {
    if (index > 0) lines.push({ number: null, text: '⋯', change: 'context' });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      if (line.kind === '-') lines.push({ number: oldLine++, text: line.text, change: 'removed' });
      else if (line.kind === '+') lines.push({ number: newLine++, text: line.text, change: 'added' });
      else {
        lines.push({ number: newLine++, text: line.text, change: 'context' });
        oldLine++;
      }
    }
  });
  return lines;
}

function tidy(line: CodeLine): CodeLine {
  const text = line.text.replace(/\t/g, '  ').trimEnd();
  return { ...line, text: shorten(text, MAX_LINE_LENGTH) };
}

/** At most EXCERPT_LINES around the first change, starting LEAD_IN lines above it. */
function window(lines: CodeLine[]): { lines: CodeLine[]; focusLine: number } {
  const firstChange = lines.findIndex((line) => line.change !== 'context');
  if (firstChange < 0) return { lines: lines.slice(0, EXCERPT_LINES), focusLine: 0 };
  const start = Math.max(0, Math.min(firstChange - LEAD_IN, lines.length - EXCERPT_LINES));
  return { lines: lines.slice(start, start + EXCERPT_LINES), focusLine: firstChange - start };
}

/** How far below the first change the line that types itself in may be. */
const TYPED_WITHIN = 6;

/**
 * The added line the editor types in once it has scrolled to the change (an index into
 * `lines`), or null: the first one with some code on it, at most a few lines below the first
 * change. The pitch names it; the editor types it.
 */
export function typedLineOf(excerpt: Pick<CodeExcerpt, 'lines' | 'focusLine'>): number | null {
  for (let i = excerpt.focusLine; i < Math.min(excerpt.lines.length, excerpt.focusLine + TYPED_WITHIN + 1); i++) {
    const line = excerpt.lines[i]!;
    if (line.change === 'added' && line.number !== null && /\S{2}/.test(line.text)) return i;
  }
  return null;
}
