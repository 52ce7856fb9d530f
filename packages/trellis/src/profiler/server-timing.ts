/**
 * The Server-Timing header of a profiled response (W3C Server Timing): the lifecycle phases so
 * far (each mark to the next, repeated phases summed), the database time and count, and the
 * total; browser devtools show it in the request's Timing tab. Built at onSend, when the phases
 * up to the response are known, on every profiled response: what is the same for every request
 * down the same phases (the metric names, spelled as tokens, and which phases share one) is
 * worked out once per sequence (`planOf`), and milliseconds are written without building their
 * decimals each time (`msOf`).
 */
import { sameStrings } from './same-strings.ts';

/** The decimals of a whole number of microseconds (0-999), as msOf writes them: none for 0, else three. */
const DECIMALS = Array.from({ length: 1000 }, (_, rest) => (rest === 0 ? '' : `.${String(rest).padStart(3, '0')}`));

/** Milliseconds with three decimals from microseconds, trailing zeros kept but no `.000`. */
function msOf(microseconds: number): string {
  // Written as comparisons, not Math.max: below the optimising tier Math.max is a builtin call.
  const rounded = Math.round(microseconds);
  const us = rounded > 0 ? rounded : 0;
  const whole = Math.trunc(us / 1000);
  return `${whole}${DECIMALS[us - whole * 1000]!}`;
}

/** What a sequence of phase names comes to in the header. */
interface Plan {
  readonly names: readonly string[];
  /** For each metric, in order: what goes before its duration (`, name;dur=`). */
  readonly heads: readonly string[];
  /** For each mark, the metric it counts towards. */
  readonly slots: readonly number[];
}

/** Sequences planned lately, newest last: a few per route (requests end in different phases). */
const PLANS = 64;
const plans: Plan[] = [];

function planOf(names: readonly string[]): Plan {
  for (let i = plans.length - 1; i >= 0; i--) if (sameStrings(plans[i]!.names, names)) return plans[i]!;
  const keys: string[] = [];
  // A metric name is a token (RFC 9110 §5.6.2): a phase named otherwise is spelled with '-'.
  const slots = names.map((name) => {
    const key = name.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '-');
    const at = keys.indexOf(key);
    return at >= 0 ? at : keys.push(key) - 1;
  });
  const plan = { names: [...names], heads: keys.map((key, i) => `${i > 0 ? ', ' : ''}${key};dur=`), slots };
  if (plans.length >= PLANS) plans.shift();
  plans.push(plan);
  return plan;
}

let sums = new Float64Array(16);

export function serverTiming(marks: { readonly names: readonly string[]; readonly atUs: readonly number[] }, queries: readonly { readonly durationMs: number }[], nowUs: number): string {
  const { atUs } = marks;
  const { heads, slots } = planOf(marks.names);
  // One array of sums for every call (this runs synchronously, on every profiled response).
  if (sums.length < heads.length) sums = new Float64Array(heads.length * 2);
  for (let i = 0; i < heads.length; i++) sums[i] = 0;
  for (let i = 0; i < slots.length; i++) {
    const span = (i + 1 < slots.length ? atUs[i + 1]! : nowUs) - atUs[i]!;
    if (span > 0) sums[slots[i]!] += span;
  }
  let header = '';
  for (let i = 0; i < heads.length; i++) header += heads[i]! + msOf(sums[i]!);
  if (queries.length > 0) {
    let total = 0;
    for (const q of queries) total += q.durationMs;
    header += `${header ? ', ' : ''}db;dur=${msOf(total * 1000)};desc="${queries.length} ${queries.length === 1 ? 'query' : 'queries'}"`;
  }
  return `${header ? `${header}, ` : ''}total;dur=${msOf(nowUs - (atUs[0] ?? 0))}`;
}
