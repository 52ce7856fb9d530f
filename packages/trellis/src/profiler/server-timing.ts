/**
 * The Server-Timing header of a profiled response (W3C Server Timing): the lifecycle phases so
 * far (each mark to the next, repeated phases summed), the database time and count, and the
 * total; browser devtools show it in the request's Timing tab. Built at onSend, when the phases
 * up to the response are known.
 */
/** Phase names already checked to be tokens, and their spelling in the header. */
const spelled = new Map<string, string>();

/** Milliseconds with three decimals from microseconds, without toFixed (it runs once per phase per response). */
function msOf(microseconds: number): string {
  const us = Math.round(microseconds);
  const whole = Math.trunc(us / 1000);
  const rest = Math.round(us - whole * 1000);
  return rest === 0 ? `${whole}` : `${whole}.${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}`;
}

export function serverTiming(marks: { readonly names: readonly string[]; readonly atUs: readonly number[] }, queries: readonly { readonly durationMs: number }[], nowUs: number): string {
  const { names, atUs } = marks;
  const keys: string[] = [];
  const sums: number[] = [];
  for (let i = 0; i < names.length; i++) {
    const end = i + 1 < names.length ? atUs[i + 1]! : nowUs;
    let name = spelled.get(names[i]!);
    if (name === undefined) {
      // A metric name is a token (RFC 9110 §5.6.2): a phase named otherwise is spelled with '-'.
      name = names[i]!.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '-');
      if (spelled.size < 1000) spelled.set(names[i]!, name);
    }
    const at = keys.indexOf(name);
    const us = Math.max(0, end - atUs[i]!);
    if (at < 0) {
      keys.push(name);
      sums.push(us);
    } else sums[at]! += us;
  }
  let header = '';
  for (let i = 0; i < keys.length; i++) header += `${i > 0 ? ', ' : ''}${keys[i]};dur=${msOf(sums[i]!)}`;
  if (queries.length > 0) {
    let total = 0;
    for (const q of queries) total += q.durationMs;
    header += `${header ? ', ' : ''}db;dur=${msOf(total * 1000)};desc="${queries.length} ${queries.length === 1 ? 'query' : 'queries'}"`;
  }
  return `${header ? `${header}, ` : ''}total;dur=${msOf(Math.max(0, nowUs - (atUs[0] ?? 0)))}`;
}
