// Copies the template into a new project directory, filling in its name, title and the trellis
// dependency. Plain JavaScript: it runs from node_modules (npm init), where Node strips no types.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';

const TEMPLATE = new URL('./template/', import.meta.url);

/** A valid npm package name from a directory name: lower case, safe characters only. */
export function packageName(dir) {
  const name = basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name || 'my-api';
}

/** "my-api" → "My API"-ish: words capitalised, "api" in capitals. */
export function titleOf(name) {
  return name.split(/[-_.]+/).filter(Boolean).map((w) => (w === 'api' ? 'API' : w[0].toUpperCase() + w.slice(1))).join(' ');
}

function fill(file, values) {
  const text = readFileSync(file, 'utf8');
  const filled = text.replace(/\{\{(\w+)\}\}/g, (match, key) => (key in values ? values[key] : match));
  if (filled !== text) writeFileSync(file, filled);
}

function walk(dir, visit) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, visit);
    else visit(path);
  }
}

/** The path in a dependency spec that names a file or directory (npm-package-arg's rules), or null. */
function pathIn(spec) {
  if (/^file:/i.test(spec)) return spec.slice('file:'.length);
  if (/^(\.|~\/|\/|[a-zA-Z]:)/.test(spec)) return spec;
  // A URL, git+ssh:, github:, an npm: alias.
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec)) return null;
  // trellis-0.1.0.tgz; a version, range or tag, or owner/repo (GitHub), is no path.
  return /\.(tgz|tar\.gz|tar)$/i.test(spec) ? spec : null;
}

/**
 * The trellis dependency as the new project's package.json must hold it. npm reads a relative
 * path there from the project's directory, not from where the starter ran: `./trellis-0.1.0.tgz`
 * written as given made `npm install` in the new project fail. A relative path is rewritten to
 * reach the same file from the project; version ranges, tags, URLs and absolute paths are kept.
 */
export function dependencySpec(spec, target, cwd = process.cwd()) {
  const path = pathIn(spec);
  if (path === null || isAbsolute(path) || path.startsWith('~/')) return spec;
  return `file:${relative(target, resolve(cwd, path)).split(sep).join('/')}`;
}

/**
 * Writes the project into `dir` (which must not exist or be empty) and returns what it wrote.
 * `trellis` is the dependency spec (a version range, or a tarball path for unreleased builds).
 */
export function scaffold({ dir, trellis, databaseUrl }) {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${dir} exists and is not empty`);
  const name = packageName(target);
  cpSync(TEMPLATE, target, { recursive: true });
  renameSync(join(target, '_gitignore'), join(target, '.gitignore'));
  const values = { name, title: titleOf(name), trellis: JSON.stringify(dependencySpec(trellis, target)).slice(1, -1) };
  const files = [];
  walk(target, (file) => {
    fill(file, values);
    files.push(file.slice(target.length + 1));
  });
  if (databaseUrl) {
    writeFileSync(join(target, '.env'), `DATABASE_URL=${databaseUrl}\n`);
    files.push('.env');
  }
  return { target, name, files: files.sort() };
}
