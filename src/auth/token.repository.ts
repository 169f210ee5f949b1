// The token endpoint's two statements, each shared by the requests of one turn of
// the event loop (src/db/batch.ts): under a burst of token requests the round trips
// and the commits, not the work inside them, were what each request waited for.
import { sql } from 'kysely';
import type { DB, Tx } from '../db/database.ts';
import { batchedPerDatabase } from '../db/batch.ts';
import { clientKey } from './brute-force.ts';

export interface ClientLookup {
  /** The later of the client id's and the IP's blocks still running, if any. */
  blockedUntil: Date | null;
  channel: { id: string; secret_hash: Uint8Array; active: boolean; allowed_cidrs: string[] } | undefined;
}

interface LookupKey {
  clientId: string;
  ip: string;
  now: Date;
}

type LookupRow = {
  lookup: number;
  blocked_until: Date | null;
  id: string | null;
  secret_hash: Uint8Array | null;
  active: boolean | null;
  allowed_cidrs: string[] | null;
};

const loadClients = batchedPerDatabase(async (db: DB, keys: readonly LookupKey[]) => {
  const { rows } = await sql<LookupRow>`
    select q.lookup, c.id, c.secret_hash, c.active, c.allowed_cidrs,
           (select max(f.blocked_until) from auth_failures f
             where f.blocked_until > q.now
               and ((f.scope = 'ip' and f.key = q.ip) or (f.scope = 'client' and f.key = q.client_key))) as blocked_until
    from unnest(${keys.map((k) => k.clientId)}::text[], ${keys.map((k) => k.ip)}::text[],
                ${keys.map((k) => clientKey(k.clientId))}::text[], ${keys.map((k) => k.now.toISOString())}::timestamptz[])
           with ordinality as q(client_id, ip, client_key, now, lookup)
    left join channels c on c.client_id = q.client_id
  `.execute(db);
  const found: ClientLookup[] = Array.from({ length: keys.length });
  for (const row of rows) {
    found[Number(row.lookup) - 1] = {
      blockedUntil: row.blocked_until,
      channel:
        row.id === null
          ? undefined
          : { id: row.id, secret_hash: row.secret_hash!, active: row.active!, allowed_cidrs: row.allowed_cidrs! },
    };
  }
  return found;
});

/** The brute-force blocks of the client id and the IP, and the channel of the client id, in one query. */
export function lookUpClient(db: DB, clientId: string, ip: string, now: Date): Promise<ClientLookup> {
  return loadClients(db, { clientId, ip, now });
}

interface NewToken {
  tokenHash: Buffer;
  channelId: string;
  expiresAt: Date;
}

const writeTokens = batchedPerDatabase(async (db: DB, tokens: readonly NewToken[]) => {
  await sql`
    insert into access_tokens (token_hash, channel_id, expires_at)
    select * from unnest(${tokens.map((t) => t.tokenHash)}::bytea[], ${tokens.map((t) => t.channelId)}::uuid[],
                         ${tokens.map((t) => t.expiresAt.toISOString())}::timestamptz[])
  `.execute(db);
  return tokens.map(() => undefined);
});

/** Stores an access token (its keyed hash only); the tokens of one turn share a statement and a commit. */
export function storeToken(db: DB, token: NewToken): Promise<void> {
  return writeTokens(db, token);
}

/** The channel an access token belongs to (by the token's hash), and when the token expires. */
export function findTokenChannel(
  db: DB,
  tokenHash: Buffer,
): Promise<{ id: string; name: string; active: boolean; allowed_cidrs: string[]; expires_at: Date } | undefined> {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('channels as c', 'c.id', 't.channel_id')
    .select(['c.id', 'c.name', 'c.active', 'c.allowed_cidrs', 't.expires_at'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Revokes every token of a channel (its secret changed). */
export async function revokeChannelTokens(db: DB | Tx, channelId: string): Promise<void> {
  await db.deleteFrom('access_tokens').where('channel_id', '=', channelId).execute();
}

/** Expired tokens, up to `batch` per statement (the sweeper repeats it). */
export async function pruneExpiredTokens(db: DB | Tx, now: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from access_tokens t
      using (select token_hash from access_tokens where expires_at < ${now} order by expires_at limit ${batch}) due
      where t.token_hash = due.token_hash
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(db);
  return rows[0]?.n ?? 0;
}
