import { afterAll, expect } from 'vitest';
import { leakedSecrets } from './secrets.ts';

// A secret, token, link url token or CPF in any log line of this file fails the run.
afterAll(() => {
  const leaks = leakedSecrets();
  expect(leaks.map((l) => `${l.secret.slice(0, 6)}… in: ${l.line.slice(0, 300)}`)).toEqual([]);
});
