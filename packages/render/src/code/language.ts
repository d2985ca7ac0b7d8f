import { bundledLanguagesInfo } from 'shiki/langs';

const BY_NAME = new Map<string, string>();
for (const language of bundledLanguagesInfo) {
  BY_NAME.set(language.id, language.id);
  for (const alias of language.aliases ?? []) BY_NAME.set(alias, language.id);
}

// Maps, not object literals: a file named `constructor` or `__proto__` must not find Object's own properties.
/** Extensions that are not a language id or alias in shiki. */
const EXTENSIONS = new Map(Object.entries({
  h: 'c', hpp: 'cpp', cc: 'cpp', cxx: 'cpp', hh: 'cpp', kt: 'kotlin', kts: 'kotlin', cs: 'csharp',
  rb: 'ruby', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', ml: 'ocaml', pl: 'perl',
  ps1: 'powershell', jsonc: 'jsonc', json5: 'json5', htm: 'html', mdx: 'mdx', scss: 'scss', sass: 'sass',
  tf: 'terraform', gql: 'graphql', proto: 'proto', sol: 'solidity', env: 'dotenv', lock: 'yaml',
}));

const FILE_NAMES = new Map(Object.entries({
  dockerfile: 'docker', makefile: 'make', gemfile: 'ruby', rakefile: 'ruby', '.gitignore': 'shellscript',
  'cmakelists.txt': 'cmake', '.bashrc': 'shellscript', '.zshrc': 'shellscript',
}));

/** The shiki language of a file from its name, or `text`. */
export function languageOf(path: string): string {
  const name = (path.split('/').at(-1) ?? path).toLowerCase();
  const named = FILE_NAMES.get(name);
  if (named) return named;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return 'text';
  const extension = name.slice(dot + 1);
  return EXTENSIONS.get(extension) ?? BY_NAME.get(extension) ?? 'text';
}
