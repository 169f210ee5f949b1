// Links as a channel's history leaves them, written with generate_series (PostgreSQL),
// for the list and funnel bench (bench/portal.bench.ts). One series in time order, so
// that the channels' rows interleave in the table as they would have been created: the
// newest a few seconds old, the oldest `days` ago. Every row is a complete link (token
// and CPF hashes, a sealed-looking CPF, statuses coherent with its age: live only within
// its lifetime), and each CONCLUIDO link has its proposal.
//
// Speed: the secondary indexes of links and proposals are dropped before the fill and
// built again after it from their own definitions (a sorted build is far faster than
// millions of inserts into btrees of random keys), and foreign keys are not checked
// during the fill when the user may say so (session_replication_role, superuser): every
// key points at a row this fill or the bench wrote.
import type pg from 'pg';

export interface LinkFill {
  /** Row g (1-based) goes to `big` when g % bigEvery = 0, to `small` when g % smallEvery = 1, else to one of `others`. */
  big: string;
  bigEvery: number;
  small: string;
  smallEvery: number;
  others: string[];
  /** Rows of the series, and the days they span. */
  total: number;
  days: number;
  /** Rows per statement (each its own transaction: progress, and a bounded WAL). */
  chunk: number;
  /** The service's link lifetime: an older link is final. */
  ttlSeconds: number;
  /** Makes the tokens and ids of one fill differ from another's (letters and digits). */
  salt?: string;
  /** Called after each statement with the rows written so far. */
  progress?: (done: number) => void;
}

export interface FillTimes {
  /** Writing the rows (links, then proposals). */
  rowsSeconds: number;
  /** Building the indexes again, each by name. */
  indexSeconds: Record<string, number>;
  foreignKeysChecked: boolean;
}

// r: status draw (r % 100) and whether a reference is set ((r / 100) % 100 < 85);
// r2: which reference (two draws, the lower kept: a few references far more used than
// the rest, 2,000 in all) and the minutes to the first opening.
const LINKS = `
  insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, celular_sealed,
                     referencia_externa, status, expira_em, criado_em, aberto_em, updated_at)
  select (lpad(to_hex(t.ms), 12, '0') || '7' || substr(t.h, 1, 3) || '8' || substr(t.h, 4, 15))::uuid,
         case when g % $6 = 0 then $7::uuid when g % $8 = 1 then $9::uuid else ($10::uuid[])[1 + g % $11] end,
         'SANDBOX', decode(t.h, 'hex'), decode(t.h || t.h, 'hex'), decode(reverse(t.h), 'hex'), '***.456.789-**', null,
         case when (t.r / 100) % 100 < 85 then 'promotor-' || least(t.r2 % 2000, (t.r2 / 2000) % 2000) end,
         case
           when t.r % 100 < 50 and t.ts + $12 * interval '1 second' <= $3::timestamptz then 'EXPIRADO'
           when t.r % 100 < 30 then 'CRIADO'
           when t.r % 100 < 40 then 'ABERTO'
           when t.r % 100 < 50 then 'EM_ANDAMENTO'
           when t.r % 100 < 60 then 'CANCELADO'
           else 'CONCLUIDO' end,
         t.ts + $12 * interval '1 second', t.ts,
         case when t.r % 100 >= 30 then t.ts + (1 + (t.r2 / 4000000) % 300) * interval '1 minute' end,
         t.ts + (400 + (t.r2 / 4000000) % 300) * interval '1 minute'
  from generate_series($1::bigint, $2::bigint) as g,
       lateral (select md5($13 || g) as h, abs(hashtext($13 || 'r' || g)) as r, abs(hashtext($13 || 's' || g)) as r2,
                       (extract(epoch from $3::timestamptz) * 1000)::bigint - (($4::bigint - g) * $5::float8)::bigint as ms) as m,
       lateral (select m.h, m.r, m.r2, m.ms, 'epoch'::timestamptz + m.ms * interval '1 millisecond' as ts) as t`;

// Proposal statuses as a mature channel has them: most approved, some on the way, a few ended.
const PROPOSALS = `
  insert into proposals (link_id, channel_id, status, valor_centavos, parcelas, valor_parcela_centavos, criada_em, updated_at)
  select l.id, l.channel_id,
         (array['CRIADA', 'AGUARDANDO_FORMALIZACAO', 'FORMALIZADA', 'APROVADA', 'APROVADA', 'APROVADA', 'RECUSADA', 'CANCELADA'])
           [1 + abs(hashtext(l.id::text)) % 8],
         1500000, 24, 78912, l.aberto_em + interval '15 minutes', l.aberto_em + interval '1 hour'
  from links l
  where l.status = 'CONCLUIDO' and not exists (select 1 from proposals p where p.link_id = l.id)`;

interface SecondaryIndex {
  table: string;
  name: string;
  /** Set for a unique constraint (dropped and added as a constraint). */
  constraint: string | undefined;
  definition: string;
}

/** Every index of links and proposals but their primary keys, with what builds it again. */
async function secondaryIndexes(client: pg.Client): Promise<SecondaryIndex[]> {
  const { rows } = await client.query<{ table: string; name: string; constraint: string | null; definition: string }>(`
    select c.relname as table, i.relname as name, con.conname as constraint,
           coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.oid)) as definition
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class c on c.oid = x.indrelid
    left join pg_constraint con on con.conindid = x.indexrelid and con.contype = 'u'
    where c.relname in ('links', 'proposals') and c.relnamespace = 'public'::regnamespace and not x.indisprimary
    order by c.relname, i.relname`);
  return rows.map((r) => ({ ...r, constraint: r.constraint ?? undefined }));
}

/**
 * Writes the links (and proposals) on `client`, which it leaves in its settings
 * (synchronous_commit off for the fill). Tables keep their schema: the indexes are
 * built again, by the definitions read before the fill, when it ends or fails.
 */
export async function fillLinks(client: pg.Client, fill: LinkFill, newest = new Date()): Promise<FillTimes> {
  const salt = fill.salt ?? '';
  if (!/^[A-Za-z0-9]*$/.test(salt)) throw new Error('salt: letters and digits only');
  await client.query('set synchronous_commit = off');
  const foreignKeysChecked = !(await client.query('set session_replication_role = replica').then(
    () => true,
    () => false,
  ));
  const indexes = await secondaryIndexes(client);
  for (const index of indexes) {
    await client.query(
      index.constraint ? `alter table ${index.table} drop constraint ${index.constraint}` : `drop index ${index.name}`,
    );
  }
  const started = performance.now();
  const indexSeconds: Record<string, number> = {};
  try {
    const stepMs = (fill.days * 86_400_000) / fill.total;
    for (let first = 1; first <= fill.total; first += fill.chunk) {
      const last = Math.min(fill.total, first + fill.chunk - 1);
      await client.query(LINKS, [
        first,
        last,
        newest,
        fill.total,
        stepMs,
        fill.bigEvery,
        fill.big,
        fill.smallEvery,
        fill.small,
        fill.others,
        fill.others.length,
        fill.ttlSeconds,
        salt,
      ]);
      fill.progress?.(last);
    }
    await client.query(PROPOSALS);
  } finally {
    const rowsSeconds = (performance.now() - started) / 1000;
    if (!foreignKeysChecked) await client.query('set session_replication_role = origin');
    for (const index of indexes) {
      const at = performance.now();
      await client.query(
        index.constraint ? `alter table ${index.table} add constraint ${index.constraint} ${index.definition}` : index.definition,
      );
      indexSeconds[index.name] = (performance.now() - at) / 1000;
    }
    Object.assign(indexSeconds, { '(rows)': rowsSeconds });
  }
  const { '(rows)': rowsSeconds, ...built } = indexSeconds;
  return { rowsSeconds: rowsSeconds!, indexSeconds: built, foreignKeysChecked };
}
