/**
 * The Server-Timing header of a profiled response (W3C Server Timing): the lifecycle phases so
 * far (each mark to the next, repeated phases summed), the database time and count, and the
 * total; browser devtools show it in the request's Timing tab. Built at onSend, when the phases
 * up to the response are known.
 */
export function serverTiming(marks: { readonly names: readonly string[]; readonly atUs: readonly number[] }, queries: readonly { readonly durationMs: number }[], nowUs: number): string {
  const durations = new Map<string, number>();
  const { names, atUs } = marks;
  for (let i = 0; i < names.length; i++) {
    const end = i + 1 < names.length ? atUs[i + 1]! : nowUs;
    // A metric name is a token (RFC 9110 §5.6.2): a phase named otherwise is spelled with '-'.
    const name = names[i]!.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '-');
    durations.set(name, (durations.get(name) ?? 0) + Math.max(0, end - atUs[i]!));
  }
  const parts = [...durations].map(([name, us]) => `${name};dur=${(us / 1000).toFixed(3)}`);
  if (queries.length > 0) {
    let total = 0;
    for (const q of queries) total += q.durationMs;
    parts.push(`db;dur=${total.toFixed(3)};desc="${queries.length} ${queries.length === 1 ? 'query' : 'queries'}"`);
  }
  parts.push(`total;dur=${(Math.max(0, nowUs - (atUs[0] ?? 0)) / 1000).toFixed(3)}`);
  return parts.join(', ');
}
