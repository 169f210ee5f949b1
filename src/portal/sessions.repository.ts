// The portal's entry links and sessions (migration 0022). Tokens are looked up by their
// keyed hash only; every read of a session also asks whether its channel is active, so a
// deactivated channel's session stops working on its next request.
import { sql } from 'kysely';
import type { DB, Tx } from '../db/database.ts';

export interface SessionRow {
  id: string;
  channel_id: string;
  permissoes: string[];
  expires_at: Date;
}

export async function insertPortalLink(
  db: DB,
  link: { tokenHash: Buffer; channelId: string; permissoes: string[]; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('portal_links')
    .values({
      token_hash: link.tokenHash,
      channel_id: link.channelId,
      permissoes: link.permissoes,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}

/** The channel of an entry link that can still be used (unused, in time, channel active); nothing changes. */
export async function findUsablePortalLink(db: DB, tokenHash: Buffer, now: Date): Promise<{ channel_id: string } | undefined> {
  const { rows } = await sql<{ channel_id: string }>`
    select l.channel_id from portal_links l join channels c on c.id = l.channel_id
    where l.token_hash = ${tokenHash} and l.used_at is null and l.expires_at > ${now} and c.active
  `.execute(db);
  return rows[0];
}

/**
 * Marks the link used, in the caller's transaction, if it still could be: one statement,
 * so two redemptions of one link race on the row and only one of them gets it back.
 */
export async function claimPortalLink(
  tx: Tx,
  tokenHash: Buffer,
  now: Date,
): Promise<{ channel_id: string; permissoes: string[] } | undefined> {
  const { rows } = await sql<{ channel_id: string; permissoes: string[] }>`
    update portal_links l set used_at = ${now}
    from channels c
    where l.token_hash = ${tokenHash} and l.used_at is null and l.expires_at > ${now}
      and c.id = l.channel_id and c.active
    returning l.channel_id, l.permissoes
  `.execute(tx);
  return rows[0];
}

export async function insertSession(
  tx: Tx,
  session: { id: string; tokenHash: Buffer; channelId: string; permissoes: string[]; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await tx
    .insertInto('portal_sessions')
    .values({
      id: session.id,
      token_hash: session.tokenHash,
      channel_id: session.channelId,
      permissoes: session.permissoes,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
      ended_at: null,
    })
    .execute();
}

/** A live session by its token's hash: not ended, not expired, of an active channel. */
export async function findLiveSession(db: DB, tokenHash: Buffer, now: Date): Promise<SessionRow | undefined> {
  const { rows } = await sql<SessionRow>`
    select s.id, s.channel_id, s.permissoes, s.expires_at
    from portal_sessions s join channels c on c.id = s.channel_id
    where s.token_hash = ${tokenHash} and s.ended_at is null and s.expires_at > ${now} and c.active
  `.execute(db);
  return rows[0];
}

export async function endSessionById(db: DB, id: string, now: Date): Promise<void> {
  await db.updateTable('portal_sessions').set({ ended_at: now }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/**
 * Ends every live session of a channel and deletes its unused entry links (the channel
 * revoked them, or was deactivated): the number of sessions that were still live.
 */
export async function endChannelSessions(db: DB | Tx, channelId: string, now: Date): Promise<number> {
  await db.deleteFrom('portal_links').where('channel_id', '=', channelId).where('used_at', 'is', null).execute();
  const { rows } = await sql<{ n: number }>`
    with ended as (
      update portal_sessions set ended_at = ${now}
      where channel_id = ${channelId} and ended_at is null
      returning expires_at
    )
    select (count(*) filter (where expires_at > ${now}))::int as n from ended
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/** Entry links and sessions that can no longer be used, up to `batch` of each per call (the sweeper repeats it). */
export async function prunePortalAccess(db: DB, now: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with links as (
      delete from portal_links l
      using (select token_hash from portal_links where expires_at < ${now} order by expires_at limit ${batch}) due
      where l.token_hash = due.token_hash
      returning 1
    ), sessions as (
      delete from portal_sessions s
      using (select id from portal_sessions where expires_at < ${now} or ended_at is not null limit ${batch}) due
      where s.id = due.id
      returning 1
    )
    select ((select count(*) from links) + (select count(*) from sessions))::int as n
  `.execute(db);
  return rows[0]?.n ?? 0;
}
