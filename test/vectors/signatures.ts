// Shared signature fixtures: the known-answer vectors (signatures.json) every verifier
// must agree with, and the headers every verifier must refuse as malformed.
import { readFileSync } from 'node:fs';

export interface SignatureVector {
  name: string;
  secrets: string[];
  timestamp: number;
  body: string;
  header: string;
}

export const signatureVectors: SignatureVector[] = JSON.parse(
  readFileSync(new URL('./signatures.json', import.meta.url), 'utf8'),
);

/** Headers that are not `t=<digits>,v1=<64 lowercase hex>…`, for a timestamp `t`. */
export function malformedHeaders(t: number): string[] {
  const v1 = 'a'.repeat(64);
  return [
    'lixo',
    `v1=${v1}`,
    `t=${t}`,
    `t=abc,v1=${v1}`,
    `t=${t},v1=xyz`,
    `t=${t},t=${t},v1=${v1}`,
    `t=${t},v1=${v1.toUpperCase()}`,
  ];
}
