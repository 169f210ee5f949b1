// The funnel's counter tables as the triggers keep them, and the same counted from the
// links and proposals themselves: tests compare the two after whatever changes they make.
import { sql } from 'kysely';
import type { DB } from '../../src/db/database.ts';
import { LINK_COLUMNS, PROPOSAL_COLUMNS } from '../../src/reports/funnel.repository.ts';

type Row = Record<string, string | number>;
export type Counters = Record<string, Row[]>;

/** What the counter tables hold now (rows of zeros left out), in a stable order. */
export async function countersNow(db: DB): Promise<Counters> {
  const read = async (table: string, ref: boolean) => {
    const columns = table.startsWith('link') ? LINK_COLUMNS : PROPOSAL_COLUMNS;
    const { rows } = await sql<Row>`
      select channel_id, dia::text as dia, ${ref ? sql`referencia_externa,` : sql``}
             ${sql.join(columns.map((c) => sql.ref(c)))}
      from ${sql.table(table)}
      order by channel_id, dia${ref ? sql`, referencia_externa` : sql``}`.execute(db);
    return rows.filter((row) => columns.some((c) => row[c] !== 0));
  };
  const { rows: months } = await sql<Row>`
    select channel_id, mes::text as mes, referencia_externa, array_to_string(criados_ate_dia, ',') as criados_ate_dia
    from link_funnel_reference_months
    where criados_ate_dia <> array_fill(0, array[31])
    order by channel_id, mes, referencia_externa`.execute(db);
  return {
    links: await read('link_funnel_days', false),
    linksByReference: await read('link_funnel_references', true),
    linksByReferenceMonth: months,
    proposals: await read('proposal_funnel_days', false),
    proposalsByReference: await read('proposal_funnel_references', true),
  };
}

/** The same, counted from the links and proposals themselves. */
export async function recount(db: DB): Promise<Counters> {
  const day = sql`(l.criado_em at time zone 'America/Sao_Paulo')::date`;
  const linkCounts = sql`count(*)::int as criados, count(l.aberto_em)::int as abertos,
    count(*) filter (where l.status = 'CRIADO')::int as criado, count(*) filter (where l.status = 'ABERTO')::int as aberto,
    count(*) filter (where l.status = 'EM_ANDAMENTO')::int as em_andamento,
    count(*) filter (where l.status = 'CONCLUIDO')::int as concluido,
    count(*) filter (where l.status = 'CANCELADO')::int as cancelado,
    count(*) filter (where l.status = 'EXPIRADO')::int as expirado`;
  const proposalCounts = sql`count(*) filter (where p.status = 'CRIADA')::int as criada,
    count(*) filter (where p.status = 'AGUARDANDO_FORMALIZACAO')::int as aguardando_formalizacao,
    count(*) filter (where p.status = 'FORMALIZADA')::int as formalizada,
    count(*) filter (where p.status = 'APROVADA')::int as aprovada,
    count(*) filter (where p.status = 'RECUSADA')::int as recusada,
    count(*) filter (where p.status = 'CANCELADA')::int as cancelada`;
  const ref = sql`coalesce(l.referencia_externa, '')`;
  const rows = async (query: ReturnType<typeof sql<Row>>) => (await query.execute(db)).rows;
  return {
    links: await rows(sql<Row>`select l.channel_id, ${day}::text as dia, ${linkCounts} from links l group by 1, 2 order by 1, 2`),
    linksByReference: await rows(
      sql<Row>`select l.channel_id, ${day}::text as dia, ${ref} as referencia_externa, ${linkCounts}
        from links l group by 1, 2, 3 order by 1, 2, 3`,
    ),
    // Links created in each month up to each of its days 1 to 31, references only.
    linksByReferenceMonth: await rows(
      sql<Row>`select channel_id, mes::text as mes, referencia_externa, array_to_string(array_agg(n order by d), ',') as criados_ate_dia
        from (select l.channel_id, ${day} - extract(day from ${day})::int + 1 as mes, l.referencia_externa, d,
                     count(*) filter (where extract(day from ${day}) <= d)::int as n
              from links l cross join generate_series(1, 31) as d
              where l.referencia_externa is not null
              group by 1, 2, 3, 4) as m
        group by 1, 2, 3 order by 1, 2, 3`,
    ),
    proposals: await rows(
      sql<Row>`select l.channel_id, ${day}::text as dia, ${proposalCounts}
        from proposals p join links l on l.id = p.link_id group by 1, 2 order by 1, 2`,
    ),
    proposalsByReference: await rows(
      sql<Row>`select l.channel_id, ${day}::text as dia, ${ref} as referencia_externa, ${proposalCounts}
        from proposals p join links l on l.id = p.link_id group by 1, 2, 3 order by 1, 2, 3`,
    ),
  };
}
