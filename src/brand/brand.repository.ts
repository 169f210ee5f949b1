// A channel's brand, and what a hosted page needs of it.
import { sql, type Selectable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ChannelBrandsTable } from '../db/tables.ts';

export type BrandRow = Selectable<ChannelBrandsTable>;

export function findBrandRow(db: DB, channelId: string): Promise<BrandRow | undefined> {
  return db.selectFrom('channel_brands').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
}

/** Creates or replaces the brand; true when it was created. */
export async function upsertBrandRow(db: DB, row: BrandRow): Promise<boolean> {
  const { rows } = await sql<{ created: boolean }>`
    insert into channel_brands (channel_id, nome, cor, logo, logo_type, logo_hash, logo_width, logo_height, updated_at)
    values (${row.channel_id}, ${row.nome}, ${row.cor}, ${row.logo}, ${row.logo_type}, ${row.logo_hash},
            ${row.logo_width}, ${row.logo_height}, ${row.updated_at})
    on conflict (channel_id) do update set
      nome = excluded.nome, cor = excluded.cor, logo = excluded.logo, logo_type = excluded.logo_type,
      logo_hash = excluded.logo_hash, logo_width = excluded.logo_width, logo_height = excluded.logo_height,
      updated_at = excluded.updated_at
    returning (xmax = 0) as created
  `.execute(db);
  return rows[0]?.created === true;
}

export async function deleteBrandRow(db: DB, channelId: string): Promise<boolean> {
  const result = await db.deleteFrom('channel_brands').where('channel_id', '=', channelId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export function findLogo(db: DB, hash: string): Promise<{ logo: Uint8Array; logo_type: string } | undefined> {
  return db
    .selectFrom('channel_brands')
    .select(['logo', 'logo_type'])
    .where('logo_hash', '=', hash)
    .executeTakeFirst() as Promise<{ logo: Uint8Array; logo_type: string } | undefined>;
}

/** The channel's name and brand, for the pages (the name stands in for a brand not set). */
export async function findPageBrand(
  db: DB,
  channelId: string,
): Promise<
  | {
      name: string;
      nome: string | null;
      cor: string | null;
      logo_hash: string | null;
      logo_width: number | null;
      logo_height: number | null;
    }
  | undefined
> {
  return db
    .selectFrom('channels as c')
    .leftJoin('channel_brands as b', 'b.channel_id', 'c.id')
    .select(['c.name', 'b.nome', 'b.cor', 'b.logo_hash', 'b.logo_width', 'b.logo_height'])
    .where('c.id', '=', channelId)
    .executeTakeFirst();
}
