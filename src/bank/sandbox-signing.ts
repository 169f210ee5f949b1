// The sandbox bank's fictitious signing page (/sandbox/assinatura/{token}, docs/rules.md
// §6.1). Each signing link carries its own random token (43 base62 characters, 256
// bits), stored only as a keyed hash beside the proposal number: proposal numbers are
// sequential, and a page found by number told anyone which channel held which proposal.
import type { Database } from '../db/database.ts';
import type { Keys } from '../crypto/keys.ts';
import { randomBase62 } from '../crypto/random.ts';

export const SIGNING_PAGE_PATH = '/sandbox/assinatura/';
const TOKEN = /^[A-Za-z0-9]{43}$/;

type Deps = { database: Database; keys: Keys };

const hashSigningToken = (deps: Pick<Deps, 'keys'>, token: string): Buffer => deps.keys.hash('sandbox-signing-token', token);

/** A new signing page for the proposal; returns its token (never stored). */
export async function issueSigningPage(deps: Deps, numero: number): Promise<string> {
  const token = randomBase62(43);
  await deps.database.db
    .insertInto('sandbox_signing_pages')
    .values({ token_hash: hashSigningToken(deps, token), numero })
    .execute();
  return token;
}

/** The proposal a signing page's token was issued for; undefined for any other text. */
export async function proposalOfSigningPage(deps: Deps, token: string): Promise<number | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await deps.database.db
    .selectFrom('sandbox_signing_pages')
    .select('numero')
    .where('token_hash', '=', hashSigningToken(deps, token))
    .executeTakeFirst();
  return row?.numero;
}
