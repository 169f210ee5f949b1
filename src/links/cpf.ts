// CPF rules of docs/rules.md §3: exactly 11 digits, valid check digits, and none of the
// eleven repeated-digit numbers (which pass the check-digit test but are not CPFs).

export function isValidCpf(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{11}$/.test(value)) return false;
  if (/^(\d)\1{10}$/.test(value)) return false;
  const digits = [...value].map(Number);
  return checkDigit(digits, 9) === digits[9] && checkDigit(digits, 10) === digits[10];
}

function checkDigit(digits: number[], length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/** Only the middle six digits: `***.456.789-**`. */
export const maskCpf = (cpf: string): string => `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;

/** For logs and support: never more than this. */
export const cpfLogHint = (cpf: string): string => `***${cpf.slice(-2)}`;
