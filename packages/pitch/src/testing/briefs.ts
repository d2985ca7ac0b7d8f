import { Brief, type BriefInput } from '@vp/contracts';

type CodeInput = NonNullable<BriefInput['code']>[number];
type MediaInput = NonNullable<BriefInput['media']>[number];

/** A valid brief with the spec's defaults filled in; tests spell out only what they are about. */
export function brief(overrides: Partial<BriefInput> = {}): Brief {
  return Brief.parse({ intent: 'Announce the 2.3 release of the billing dashboard', ...overrides });
}

export function codeFile(path: string, overrides: Partial<CodeInput> = {}): CodeInput {
  return { path, source: `// ${path}\n`, status: 'modified', additions: 10, deletions: 2, score: 0.5, ...overrides };
}

export function image(id: string, name: string, description: string | null = null): MediaInput {
  return { id, kind: 'image', url: `https://cdn.example.com/${id}.png`, name, description };
}

export function video(id: string, name: string, description: string | null = null): MediaInput {
  return { id, kind: 'video', url: `https://cdn.example.com/${id}.mp4`, name, description };
}

/** A unified diff that only re-indents a line. */
export function whitespacePatch(line = 'return total;'): string {
  return `@@ -1,1 +1,1 @@\n-  ${line}\n+\t${line}  `;
}
