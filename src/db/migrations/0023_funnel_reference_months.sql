-- The funnel (migration 0020): the ranking by reference read from a month's running
-- totals, and proposal counts that follow their link when it moves.

-- Link writes wait while this runs (their triggers write the counts it reads and
-- rebuilds): links first, then the counts, the order a link's statement takes them.
lock table links in share row exclusive mode;
lock table link_funnel_references in access exclusive mode;

-- The ranking of GET /v1/relatorios/funil?agruparPor=referenciaExterna: the references
-- with the most links created in the period. Read from link_funnel_references it summed
-- one row per day and reference used that day: for a channel with many references, tens
-- of thousands of rows for 30 days, CPU-bound and growing with the period (bench/README.md
-- "Portal reads"). Here one row per São Paulo month and
-- reference holds the links created up to each day of that month (element d: days 1 to d;
-- past the month's last day, its total), so any period's count of a reference is two
-- elements of at most a row per month: 2 rows per reference for 30 days, 13 for a year.
-- Links without a reference are not ranked, and not kept here.
create table link_funnel_reference_months (
  channel_id       uuid not null,
  mes              date not null,
  referencia_externa text not null,
  criados_ate_dia  integer[] not null,
  primary key (channel_id, mes, referencia_externa)
);

-- Counts by day of the month (1 to 31) as the 31 running totals from day 1.
create function funnel_days_cumulative(days integer[], counts integer[]) returns integer[] language plpgsql immutable as $$
declare
  totals integer[] := array_fill(0, array[31]);
  running integer := 0;
begin
  for k in 1 .. coalesce(array_length(days, 1), 0) loop
    totals[days[k]] := totals[days[k]] + counts[k];
  end loop;
  for d in 1 .. 31 loop
    running := running + totals[d];
    totals[d] := running;
  end loop;
  return totals;
end $$;

create function funnel_arrays_added(a integer[], b integer[]) returns integer[] language plpgsql immutable as $$
begin
  for d in 1 .. 31 loop
    a[d] := a[d] + b[d];
  end loop;
  return a;
end $$;

-- Migration 0020's, with the months beside the days and references, and in PL/pgSQL: a
-- SQL function's statement is planned again at every call, a PL/pgSQL one's once per
-- connection, which makes each counted write cheaper than it was before the months
-- (bench/README.md "Portal reads").
create or replace function apply_link_funnel(changes link_funnel_change[]) returns void language plpgsql as $$
begin
  with c as (
    select channel_id, (criado_em at time zone 'America/Sao_Paulo')::date as dia,
           coalesce(referencia_externa, '') as referencia_externa,
           sum(sign)::int as criados, sum(sign * aberto::int)::int as abertos,
           sum(sign * (status = 'CRIADO')::int)::int as criado, sum(sign * (status = 'ABERTO')::int)::int as aberto,
           sum(sign * (status = 'EM_ANDAMENTO')::int)::int as em_andamento,
           sum(sign * (status = 'CONCLUIDO')::int)::int as concluido,
           sum(sign * (status = 'CANCELADO')::int)::int as cancelado, sum(sign * (status = 'EXPIRADO')::int)::int as expirado
    from unnest(changes)
    group by 1, 2, 3
  ),
  by_month as (
    insert into link_funnel_reference_months as f (channel_id, mes, referencia_externa, criados_ate_dia)
    select channel_id, mes, referencia_externa, funnel_days_cumulative(array_agg(dia_do_mes), array_agg(criados))
    from (select channel_id, dia - extract(day from dia)::int + 1 as mes, extract(day from dia)::int as dia_do_mes,
                 referencia_externa, criados
          from c
          where criados <> 0 and referencia_externa <> '') as m
    group by channel_id, mes, referencia_externa
    order by channel_id, mes, referencia_externa
    on conflict (channel_id, mes, referencia_externa) do update set
      criados_ate_dia = funnel_arrays_added(f.criados_ate_dia, excluded.criados_ate_dia)
  ),
  by_reference as (
    insert into link_funnel_references as f
      (channel_id, dia, referencia_externa, criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado)
    select channel_id, dia, referencia_externa, criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado
    from c
    where (criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado) <> (0, 0, 0, 0, 0, 0, 0, 0)
    order by channel_id, referencia_externa, dia
    on conflict (channel_id, referencia_externa, dia) do update set
      criados = f.criados + excluded.criados, abertos = f.abertos + excluded.abertos, criado = f.criado + excluded.criado,
      aberto = f.aberto + excluded.aberto, em_andamento = f.em_andamento + excluded.em_andamento,
      concluido = f.concluido + excluded.concluido, cancelado = f.cancelado + excluded.cancelado,
      expirado = f.expirado + excluded.expirado
  )
  insert into link_funnel_days as f (channel_id, dia, criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado)
  select channel_id, dia, sum(criados), sum(abertos), sum(criado), sum(aberto), sum(em_andamento), sum(concluido),
         sum(cancelado), sum(expirado)
  from c
  group by channel_id, dia
  having (sum(criados), sum(abertos), sum(criado), sum(aberto), sum(em_andamento), sum(concluido), sum(cancelado),
          sum(expirado)) <> (0, 0, 0, 0, 0, 0, 0, 0)
  order by channel_id, dia
  on conflict (channel_id, dia) do update set
    criados = f.criados + excluded.criados, abertos = f.abertos + excluded.abertos, criado = f.criado + excluded.criado,
    aberto = f.aberto + excluded.aberto, em_andamento = f.em_andamento + excluded.em_andamento,
    concluido = f.concluido + excluded.concluido, cancelado = f.cancelado + excluded.cancelado,
    expirado = f.expirado + excluded.expirado;
end $$;

-- What existed before the months, from the counts by day and reference.
insert into link_funnel_reference_months (channel_id, mes, referencia_externa, criados_ate_dia)
select channel_id, dia - extract(day from dia)::int + 1, referencia_externa,
       funnel_days_cumulative(array_agg(extract(day from dia)::int), array_agg(criados))
from link_funnel_references
where referencia_externa <> '' and criados <> 0
group by 1, 2, 3;

-- The ranking's former index: read no more, and with criados in it the update of a
-- count by day and reference that every new link makes could never be a HOT one.
drop index link_funnel_references_ranking;

-- A proposal is counted under its link's channel, São Paulo day and reference. The service
-- never changes those, but an operator's SQL may (a promoter's code corrected, say): the
-- link's own counts moved with it, its proposal's stayed where the link had been. (Not
-- recounted here: no path of the service moves a link, and rebuilding the proposal counts
-- would hold their lock, and so every proposal change, for a minute on millions of rows.)

create type proposal_funnel_count as (channel_id uuid, criado_em timestamptz, referencia_externa text, status text,
                                      sign integer);

-- apply_proposal_funnel's upserts, given each proposal's place instead of its link id.
create function apply_proposal_counts(changes proposal_funnel_count[]) returns void language plpgsql as $$
begin
  with c as (
    select channel_id, (criado_em at time zone 'America/Sao_Paulo')::date as dia,
           coalesce(referencia_externa, '') as referencia_externa,
           sum(sign * (status = 'CRIADA')::int)::int as criada,
           sum(sign * (status = 'AGUARDANDO_FORMALIZACAO')::int)::int as aguardando_formalizacao,
           sum(sign * (status = 'FORMALIZADA')::int)::int as formalizada,
           sum(sign * (status = 'APROVADA')::int)::int as aprovada,
           sum(sign * (status = 'RECUSADA')::int)::int as recusada,
           sum(sign * (status = 'CANCELADA')::int)::int as cancelada
    from unnest(changes)
    group by 1, 2, 3
  ),
  by_reference as (
    insert into proposal_funnel_references as f
      (channel_id, dia, referencia_externa, criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada)
    select channel_id, dia, referencia_externa, criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada
    from c
    where (criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada) <> (0, 0, 0, 0, 0, 0)
    order by channel_id, referencia_externa, dia
    on conflict (channel_id, referencia_externa, dia) do update set
      criada = f.criada + excluded.criada, aguardando_formalizacao = f.aguardando_formalizacao + excluded.aguardando_formalizacao,
      formalizada = f.formalizada + excluded.formalizada, aprovada = f.aprovada + excluded.aprovada,
      recusada = f.recusada + excluded.recusada, cancelada = f.cancelada + excluded.cancelada
  )
  insert into proposal_funnel_days as f (channel_id, dia, criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada)
  select channel_id, dia, sum(criada), sum(aguardando_formalizacao), sum(formalizada), sum(aprovada), sum(recusada), sum(cancelada)
  from c
  group by channel_id, dia
  having (sum(criada), sum(aguardando_formalizacao), sum(formalizada), sum(aprovada), sum(recusada), sum(cancelada))
         <> (0, 0, 0, 0, 0, 0)
  order by channel_id, dia
  on conflict (channel_id, dia) do update set
    criada = f.criada + excluded.criada, aguardando_formalizacao = f.aguardando_formalizacao + excluded.aguardando_formalizacao,
    formalizada = f.formalizada + excluded.formalizada, aprovada = f.aprovada + excluded.aprovada,
    recusada = f.recusada + excluded.recusada, cancelada = f.cancelada + excluded.cancelada;
end $$;

create or replace function apply_proposal_funnel(changes proposal_funnel_change[]) returns void language plpgsql as $$
begin
  perform apply_proposal_counts(array(
    select row(l.channel_id, l.criado_em, l.referencia_externa, x.status, x.sign)::proposal_funnel_count
    from unnest(changes) x
    join links l on l.id = x.link_id));
end $$;

-- A row trigger on the three columns, and only when one changes: the service's updates
-- of links never name them, so they pay nothing for it (a statement trigger with a column
-- list cannot read transition tables). Row triggers fire before the statement's
-- links_funnel_updated: the proposal counts are locked before the link counts, the
-- order of migration 0020.
create function links_funnel_moved() returns trigger language plpgsql as $$
begin
  perform apply_proposal_counts(array(
    select row(c.channel_id, c.criado_em, c.referencia_externa, p.status, c.sign)::proposal_funnel_count
    from proposals p
    cross join (values (new.channel_id, new.criado_em, new.referencia_externa, 1),
                       (old.channel_id, old.criado_em, old.referencia_externa, -1))
      as c(channel_id, criado_em, referencia_externa, sign)
    where p.link_id = new.id));
  return null;
end $$;
create trigger links_funnel_moved after update of channel_id, criado_em, referencia_externa on links
  for each row
  when ((old.channel_id, old.criado_em, old.referencia_externa) is distinct from
        (new.channel_id, new.criado_em, new.referencia_externa))
  execute function links_funnel_moved();
