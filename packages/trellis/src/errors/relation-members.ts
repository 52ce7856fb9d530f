/**
 * The key, in an error's extensions, of the names of the resource's relations: JSON:API places a
 * relation's member under `/data/relationships/`, not `/data/attributes/` (JSON:API 1.1, Error
 * Objects, `source.pointer`), and the error format has no resource to ask. A symbol, so no
 * format writes it out: JSON.stringify skips symbol keys.
 */
export const RELATION_MEMBERS: unique symbol = Symbol('trellis.relationMembers');

/** The relation names an error's extensions carry (none when the error came from no resource). */
export function relationMembers(extensions: Readonly<Record<PropertyKey, unknown>>): ReadonlySet<string> {
  const names = extensions[RELATION_MEMBERS];
  return names instanceof Set ? (names as ReadonlySet<string>) : EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();
