import type { TimelineMarks } from './profiled-request.ts';
import { sameStrings } from './same-strings.ts';

/**
 * Marks as a snapshot carries them: the names as one string, their instants as they are. A
 * route's requests pass the same phases in the same order (observe, guard, firewall, handler,
 * respond, terminate), so the string is made once per sequence and shared, and the snapshot's
 * encoding (about 350 instructions per value, whatever its size) writes one string, not six.
 * The names are joined by spaces, which JSON writes as they are (a quote it escapes costs more);
 * names that could not be told apart so (empty, holding a space, or a first one beginning with
 * `[`) are written as a JSON text instead.
 */
export interface PackedMarks {
  readonly names: string;
  readonly atUs: readonly number[];
}

/** Sequences packed lately, newest last: a few per route at most (the error sub-requests' differ). */
const SEQUENCES = 32;
const sequences: { readonly names: readonly string[]; readonly text: string }[] = [];

/** The marks as a snapshot carries them (PackedMarks). `marks.names` must not change afterwards. */
export function packMarks(marks: TimelineMarks): PackedMarks {
  for (let i = sequences.length - 1; i >= 0; i--) {
    const known = sequences[i]!;
    if (sameStrings(marks.names, known.names)) return { names: known.text, atUs: marks.atUs };
  }
  const { names } = marks;
  const plain = names.length > 0 && !names[0]!.startsWith('[') && names.every((name) => name !== '' && !name.includes(' '));
  const text = plain ? names.join(' ') : JSON.stringify(names);
  if (sequences.length >= SEQUENCES) sequences.shift();
  sequences.push({ names: [...marks.names], text });
  return { names: text, atUs: marks.atUs };
}

/** The marks of a snapshot as collectors read them: packed (`packMarks`) or, in older profiles, whole. */
export function unpackMarks(marks: TimelineMarks | PackedMarks): TimelineMarks {
  const { names } = marks;
  if (typeof names !== 'string') return marks as TimelineMarks;
  return { names: names.startsWith('[') ? (JSON.parse(names) as string[]) : names.split(' '), atUs: marks.atUs };
}
