/**
 * A text kept as its beginning (a cut query parameter, a cut log string) may end in the first
 * characters of a secret: the scrub, which replaces whole secrets, cannot recognise it cut in two.
 * `text` without its longest ending that is the beginning of one of `secrets`.
 */
export function withoutSecretStart(text: string, secrets: readonly string[]): string {
  let end = text.length;
  for (const secret of secrets) {
    for (let k = Math.min(secret.length - 1, end); k > 0; k--) {
      if (text.startsWith(secret.slice(0, k), end - k)) {
        end -= k;
        break;
      }
    }
  }
  return end === text.length ? text : `${text.slice(0, end)}[redacted]`;
}
