/** Whether a 13-digit ISBN has the right check digit (weights 1, 3, 1, 3…; ISO 2108). */
export function isValidIsbn13(isbn: string): boolean {
  if (!/^97[89][0-9]{10}$/.test(isbn)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(isbn[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(isbn[12]);
}

/** Appends the check digit to a 12-digit prefix. */
export function withCheckDigit(prefix12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(prefix12[i]) * (i % 2 === 0 ? 1 : 3);
  return `${prefix12}${(10 - (sum % 10)) % 10}`;
}
