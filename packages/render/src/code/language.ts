import { bundledLanguagesInfo } from 'shiki/langs';

const BY_NAME = new Map<string, string>();
for (const language of bundledLanguagesInfo) {
  BY_NAME.set(language.id, language.id);
  for (const alias of language.aliases ?? []) BY_NAME.set(alias, language.id);
}

/** Extensions that are not a language id or alias in shiki. */
const EXTENSIONS: Record<string, string> = {
  h: 'c', hpp: 'cpp', cc: 'cpp', cxx: 'cpp', hh: 'cpp', kt: 'kotlin', kts: 'kotlin', cs: 'csharp',
  rb: 'ruby', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', ml: 'ocaml', pl: 'perl',
  ps1: 'powershell', jsonc: 'jsonc', json5: 'json5', htm: 'html', mdx: 'mdx', scss: 'scss', sass: 'sass',
  tf: 'terraform', gql: 'graphql', proto: 'proto', sol: 'solidity', env: 'dotenv', lock: 'yaml',
};

const FILE_NAMES: Record<string, string> = {
  dockerfile: 'docker', makefile: 'make', gemfile: 'ruby', rakefile: 'ruby', '.gitignore': 'shellscript',
  'cmakelists.txt': 'cmake', '.bashrc': 'shellscript', '.zshrc': 'shellscript',
};

/** The shiki language of a file from its name, or `text`. */
export function languageOf(path: string): string {
  const name = (path.split('/').at(-1) ?? path).toLowerCase();
  if (FILE_NAMES[name]) return FILE_NAMES[name];
  const dot = name.lastIndexOf('.');
  if (dot < 0) return 'text';
  const extension = name.slice(dot + 1);
  return EXTENSIONS[extension] ?? BY_NAME.get(extension) ?? 'text';
}
