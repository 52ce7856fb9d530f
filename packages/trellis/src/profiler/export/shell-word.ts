/** A piece of a shell word: text as it is, or a variable the user sets (a redacted value). */
export type WordPart = string | { readonly variable: string };

/**
 * One word of a POSIX shell command line (sh, bash, zsh; POSIX.1-2017 XCU §2.2) made of literal
 * text and variables: the text single-quoted, where nothing is special (`$`, backquotes,
 * backslashes, newlines, `!`), a single quote written as `'\''`; each variable double-quoted
 * ("$NAME"), so it is expanded without word splitting or globbing. A NUL cannot be in an argument
 * and is dropped. fish reads backslashes inside single quotes differently: not a target.
 */
export function shellWord(parts: readonly WordPart[]): string {
  // Adjacent texts as one quoted run.
  const runs: WordPart[] = [];
  for (const part of parts) {
    const last = runs.at(-1);
    if (typeof part === 'string' && typeof last === 'string') runs[runs.length - 1] = last + part;
    else if (part !== '') runs.push(part);
  }
  // Nothing in it the shell reads specially: left bare, for reading.
  if (runs.length === 1 && typeof runs[0] === 'string' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(runs[0])) return runs[0];
  let out = '';
  for (const part of runs) {
    if (typeof part === 'string') out += `'${part.replaceAll('\0', '').replaceAll("'", "'\\''")}'`;
    else out += `"$${part.variable}"`;
  }
  return out === '' ? "''" : out;
}
