// Brazilian mobile numbers (docs/rules.md §3): a valid DDD, then 9, then 8 digits.
const DDDS = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53,
  54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96,
  97, 98, 99,
]);

export function isValidCelular(value: unknown): value is string {
  return typeof value === 'string' && /^\d{2}9\d{8}$/.test(value) && DDDS.has(Number(value.slice(0, 2)));
}

/** `(11) 9****-4321`: what the hosted page shows of a pre-filled number. */
export const maskCelular = (celular: string): string => `(${celular.slice(0, 2)}) 9****-${celular.slice(-4)}`;
