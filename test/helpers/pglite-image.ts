// The migrated data folder image made once per run (test/helpers/global-setup.ts), read
// once per test file; undefined on PostgreSQL.
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';

let image: Promise<Blob | undefined> | undefined;

export function migratedImage(): Promise<Blob | undefined> {
  const file = inject('pgliteImage');
  image ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return image;
}
