import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { bundledThemes } from 'shiki/themes';

export type Token = { text: string; color: string; italic: boolean; bold: boolean };
export interface Highlighted {
  lines: Token[][];
  background: string;
  foreground: string;
}

export const DARK_THEME = 'github-dark';
export const LIGHT_THEME = 'github-light';

// One highlighter per process: grammars load once and are shared by every render. The
// JavaScript regex engine needs no WebAssembly and holds ~35 MB less than Oniguruma;
// `forgiving` skips the rare pattern it cannot translate instead of failing the grammar.
let highlighter: Promise<HighlighterCore> | null = null;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [bundledThemes[DARK_THEME](), bundledThemes[LIGHT_THEME]()],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

async function loaded(language: string): Promise<{ shiki: HighlighterCore; lang: string }> {
  const shiki = await getHighlighter();
  const grammar = bundledLanguages[language as keyof typeof bundledLanguages];
  if (!grammar) return { shiki, lang: 'text' };
  if (shiki.getLoadedLanguages().includes(language)) return { shiki, lang: language };
  return shiki.loadLanguage(grammar()).then(() => ({ shiki, lang: language }), () => ({ shiki, lang: 'text' }));
}

/**
 * Loads the grammars and compiles their patterns ahead of time (the first tokenisation of a
 * language costs far more than the next ones), so planning does not wait for it.
 */
export async function warmUp(samples: { language: string; text: string }[]): Promise<void> {
  for (const sample of samples) await highlight(sample.text.split('\n'), sample.language, true);
}

/** Syntax colours for each line, from shiki; an unknown language is plain text in the theme's colours. */
export async function highlight(lines: string[], language: string, dark: boolean): Promise<Highlighted> {
  const { shiki, lang } = await loaded(language);
  const theme = dark ? DARK_THEME : LIGHT_THEME;
  const code = lines.join('\n');
  let result;
  try {
    result = shiki.codeToTokens(code, { lang, theme });
  } catch {
    result = shiki.codeToTokens(code, { lang: 'text', theme });
  }
  const foreground = result.fg ?? (dark ? '#e1e4e8' : '#24292e');
  return {
    background: result.bg ?? (dark ? '#24292e' : '#ffffff'),
    foreground,
    lines: result.tokens.map((line) => line.map((token) => ({
      text: token.content,
      color: token.color ?? foreground,
      // shiki's FontStyle flags: 1 italic, 2 bold.
      italic: ((token.fontStyle ?? 0) & 1) !== 0,
      bold: ((token.fontStyle ?? 0) & 2) !== 0,
    }))),
  };
}
