-- GET /v1/links and GET /v1/relatorios/funil (docs/rules.md §3.11, §3.12).

-- The list: a channel's links newest first, (criado_em, id) being the cursor's position.
-- It replaces links_channel (same leading columns, id added for the cursor), and is
-- walked backwards. A filter by status or by reference walks its own index in the same
-- order, so a rare value costs what its own links cost, not the channel's whole history.
create index links_channel_created on links (channel_id, criado_em, id);
drop index links_channel;
create index links_channel_status on links (channel_id, status, criado_em, id);
create index links_channel_reference on links (channel_id, referencia_externa, criado_em, id)
  where referencia_externa is not null;

-- The list filtered by proposal status walks the proposals in the order of their links:
-- each proposal carries its link's creation time (immutable, copied on insert).
alter table proposals add column link_criado_em timestamptz;
update proposals p set link_criado_em = l.criado_em from links l where l.id = p.link_id;
alter table proposals alter column link_criado_em set not null;
create function proposals_link_criado_em() returns trigger language plpgsql as $$
begin
  new.link_criado_em := (select l.criado_em from links l where l.id = new.link_id);
  return new;
end $$;
create trigger proposals_link_criado_em before insert on proposals
  for each row execute function proposals_link_criado_em();
create index proposals_channel_status on proposals (channel_id, status, link_criado_em, link_id);

-- The funnel counts links by the São Paulo calendar day they were created on (and by
-- reference), and how far each got: kept up to date by the statement that changes a link
-- or a proposal (statement triggers below), so that a period's funnel reads one row per
-- day (or per day and reference) however many links the channel creates. Every path that
-- writes a link or a proposal (the API, the journey, the simulator, the sweeper's expiry,
-- an operator's SQL) is counted; none can forget to. Links are counted by their stored
-- status; the reader moves the live links whose time is up to EXPIRADO, as reads do.
-- Links and proposals have tables of their own, so that a transaction that changes a
-- proposal and then its link (the journey's submission) takes the proposal counters'
-- lock before the link's, and the sweeper (links only) never waits for it the other way.
-- Derived rows, no foreign keys: each counts links that have theirs.
create table link_funnel_days (
  channel_id    uuid not null,
  dia           date not null,
  criados       integer not null,
  abertos       integer not null,
  criado        integer not null,
  aberto        integer not null,
  em_andamento  integer not null,
  concluido     integer not null,
  cancelado     integer not null,
  expirado      integer not null,
  primary key (channel_id, dia)
);
-- '' stands for "no reference" (a stored reference is never empty: docs/rules.md §3.4).
-- By reference, a period reads one row per day and reference used that day: the ranking
-- (links created per reference) from the narrow index alone, then every count of the
-- few references shown by the key; the rest is the day total less those.
create table link_funnel_references (
  channel_id          uuid not null,
  dia                 date not null,
  referencia_externa  text not null,
  criados             integer not null,
  abertos             integer not null,
  criado              integer not null,
  aberto              integer not null,
  em_andamento        integer not null,
  concluido           integer not null,
  cancelado           integer not null,
  expirado            integer not null,
  primary key (channel_id, referencia_externa, dia)
);
create index link_funnel_references_ranking on link_funnel_references (channel_id, dia) include (referencia_externa, criados);
create table proposal_funnel_days (
  channel_id               uuid not null,
  dia                      date not null,
  criada                   integer not null,
  aguardando_formalizacao  integer not null,
  formalizada              integer not null,
  aprovada                 integer not null,
  recusada                 integer not null,
  cancelada                integer not null,
  primary key (channel_id, dia)
);
create table proposal_funnel_references (
  channel_id               uuid not null,
  dia                      date not null,
  referencia_externa       text not null,
  criada                   integer not null,
  aguardando_formalizacao  integer not null,
  formalizada              integer not null,
  aprovada                 integer not null,
  recusada                 integer not null,
  cancelada                integer not null,
  primary key (channel_id, referencia_externa, dia)
);

-- A change: the row's identity for the funnel, what it counts, and +1 (new) or -1 (old).
create type link_funnel_change as (channel_id uuid, criado_em timestamptz, referencia_externa text, status text,
                                   aberto boolean, sign integer);
create type proposal_funnel_change as (link_id uuid, status text, sign integer);

-- Rows are upserted in key order, so that two statements never lock counters in
-- opposite orders (no deadlock between, say, a batch of creations and the sweeper).
create function apply_link_funnel(changes link_funnel_change[]) returns void language sql as $$
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
    expirado = f.expirado + excluded.expirado
$$;

create function apply_proposal_funnel(changes proposal_funnel_change[]) returns void language sql as $$
  with c as (
    select l.channel_id, (l.criado_em at time zone 'America/Sao_Paulo')::date as dia,
           coalesce(l.referencia_externa, '') as referencia_externa,
           sum(x.sign * (x.status = 'CRIADA')::int)::int as criada,
           sum(x.sign * (x.status = 'AGUARDANDO_FORMALIZACAO')::int)::int as aguardando_formalizacao,
           sum(x.sign * (x.status = 'FORMALIZADA')::int)::int as formalizada,
           sum(x.sign * (x.status = 'APROVADA')::int)::int as aprovada,
           sum(x.sign * (x.status = 'RECUSADA')::int)::int as recusada,
           sum(x.sign * (x.status = 'CANCELADA')::int)::int as cancelada
    from unnest(changes) x
    join links l on l.id = x.link_id
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
    recusada = f.recusada + excluded.recusada, cancelada = f.cancelada + excluded.cancelada
$$;

create function links_funnel_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform apply_link_funnel(array(
      select row(channel_id, criado_em, referencia_externa, status, aberto_em is not null, 1)::link_funnel_change
      from new_links));
  elsif tg_op = 'DELETE' then
    perform apply_link_funnel(array(
      select row(channel_id, criado_em, referencia_externa, status, aberto_em is not null, -1)::link_funnel_change
      from old_links));
  else
    -- Only the rows whose counted values changed (most updates of a link change none).
    perform apply_link_funnel(array(
      select row(c.channel_id, c.criado_em, c.referencia_externa, c.status, c.aberto, c.sign)::link_funnel_change
      from new_links n
      join old_links o on o.id = n.id
      cross join lateral (values
        (n.channel_id, n.criado_em, n.referencia_externa, n.status, n.aberto_em is not null, 1),
        (o.channel_id, o.criado_em, o.referencia_externa, o.status, o.aberto_em is not null, -1)
      ) as c(channel_id, criado_em, referencia_externa, status, aberto, sign)
      where (n.channel_id, n.criado_em, n.referencia_externa, n.status, n.aberto_em is not null)
            is distinct from (o.channel_id, o.criado_em, o.referencia_externa, o.status, o.aberto_em is not null)));
  end if;
  return null;
end $$;
create trigger links_funnel_inserted after insert on links referencing new table as new_links
  for each statement execute function links_funnel_changed();
create trigger links_funnel_updated after update on links referencing old table as old_links new table as new_links
  for each statement execute function links_funnel_changed();
create trigger links_funnel_deleted after delete on links referencing old table as old_links
  for each statement execute function links_funnel_changed();

create function proposals_funnel_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform apply_proposal_funnel(array(select row(link_id, status, 1)::proposal_funnel_change from new_proposals));
  elsif tg_op = 'DELETE' then
    perform apply_proposal_funnel(array(select row(link_id, status, -1)::proposal_funnel_change from old_proposals));
  else
    perform apply_proposal_funnel(array(
      select row(c.link_id, c.status, c.sign)::proposal_funnel_change
      from new_proposals n
      join old_proposals o on o.numero = n.numero
      cross join lateral (values (n.link_id, n.status, 1), (o.link_id, o.status, -1)) as c(link_id, status, sign)
      where (n.link_id, n.status) is distinct from (o.link_id, o.status)));
  end if;
  return null;
end $$;
create trigger proposals_funnel_inserted after insert on proposals referencing new table as new_proposals
  for each statement execute function proposals_funnel_changed();
create trigger proposals_funnel_updated after update on proposals
  referencing old table as old_proposals new table as new_proposals
  for each statement execute function proposals_funnel_changed();
create trigger proposals_funnel_deleted after delete on proposals referencing old table as old_proposals
  for each statement execute function proposals_funnel_changed();

-- What existed before the counters (one aggregate each: no array of every link).
insert into link_funnel_references
  (channel_id, dia, referencia_externa, criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado)
select channel_id, (criado_em at time zone 'America/Sao_Paulo')::date, coalesce(referencia_externa, ''), count(*),
       count(aberto_em), count(*) filter (where status = 'CRIADO'), count(*) filter (where status = 'ABERTO'),
       count(*) filter (where status = 'EM_ANDAMENTO'), count(*) filter (where status = 'CONCLUIDO'),
       count(*) filter (where status = 'CANCELADO'), count(*) filter (where status = 'EXPIRADO')
from links
group by 1, 2, 3;
insert into link_funnel_days (channel_id, dia, criados, abertos, criado, aberto, em_andamento, concluido, cancelado, expirado)
select channel_id, dia, sum(criados), sum(abertos), sum(criado), sum(aberto), sum(em_andamento), sum(concluido),
       sum(cancelado), sum(expirado)
from link_funnel_references
group by 1, 2;
insert into proposal_funnel_references
  (channel_id, dia, referencia_externa, criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada)
select l.channel_id, (l.criado_em at time zone 'America/Sao_Paulo')::date, coalesce(l.referencia_externa, ''),
       count(*) filter (where p.status = 'CRIADA'), count(*) filter (where p.status = 'AGUARDANDO_FORMALIZACAO'),
       count(*) filter (where p.status = 'FORMALIZADA'), count(*) filter (where p.status = 'APROVADA'),
       count(*) filter (where p.status = 'RECUSADA'), count(*) filter (where p.status = 'CANCELADA')
from proposals p
join links l on l.id = p.link_id
group by 1, 2, 3;
insert into proposal_funnel_days (channel_id, dia, criada, aguardando_formalizacao, formalizada, aprovada, recusada, cancelada)
select channel_id, dia, sum(criada), sum(aguardando_formalizacao), sum(formalizada), sum(aprovada), sum(recusada),
       sum(cancelada)
from proposal_funnel_references
group by 1, 2;
