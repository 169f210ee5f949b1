// A page of a channel's links (GET /v1/links), newest first by (criado_em, id), each
// with its proposal and consent as GET /v1/links/{id} shows them.
//
// Each page walks one index of migration 0020 backwards from the cursor, chosen by the
// filters: the channel's links of one reference, else its proposals of one status, else
// its links of one status, else all its links. What that index does not decide (a status
// or a proposal status beside a reference, a live status's expiry) is checked on the rows
// walked, and at most WALK_BUDGET rows are walked for a page: a rare combination answers a
// short page (even an empty one) with a cursor where the walk stopped, instead of reading
// the channel's whole history in one request (docs/rules.md §8.8).
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db/database.ts';
import type { LinkStatus, ProposalStatus } from '../db/tables.ts';
import type { LinkView } from './links.repository.ts';
import { positionInstant, type LinkPosition } from './link-cursor.ts';
import { LIVE_STATUSES } from './link-states.ts';

/** Rows walked at most for one page when a filter is checked on the rows. */
export const WALK_BUDGET = 2000;

export interface LinkListFilter {
  /** The status a reader sees (a live link whose time is up is EXPIRADO). */
  status?: LinkStatus;
  propostaStatus?: ProposalStatus;
  referenciaExterna?: string;
  /** On criado_em: inclusive. */
  desde?: Date;
  /** On criado_em: exclusive. */
  ate?: Date;
}

export interface LinkListRow extends LinkView {
  /** criado_em in microseconds since the epoch, for the cursor. */
  criado_us: string;
}

export interface LinkPage {
  /** Up to `limit` links, newest first. */
  rows: LinkListRow[];
  /** Set when fewer than `limit` matched and the walk stopped at its budget: where to go on from. */
  stoppedAt?: LinkPosition;
}

// Absent bounds are the widest ones, so that a query's text depends only on which kind
// of filter it has (a few prepared statements, src/db/database.ts).
const NO_POSITION = { instant: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
const LEAST_UUID = '00000000-0000-0000-0000-000000000000';

function nearer(before: LinkPosition | undefined, ate: Date | undefined): { instant: string; id: string } {
  const ateUs = ate ? BigInt(ate.getTime()) * 1000n : undefined;
  if (before && (ateUs === undefined || BigInt(before.criadoUs) < ateUs)) {
    return { instant: positionInstant(before), id: before.id };
  }
  return ate ? { instant: ate.toISOString(), id: LEAST_UUID } : NO_POSITION;
}
const LIVE = sql.join(LIVE_STATUSES.map((status) => sql.lit(status)));
const isLive = (status: LinkStatus) => (LIVE_STATUSES as readonly LinkStatus[]).includes(status);

interface Walk {
  /** `select id, criado_em, ok … limit`, newest first; `ok`: the row passes what the index does not decide. */
  rows(limit: number): RawBuilder<unknown>;
  /** Whether `ok` can be false (then the budget applies). */
  checks: boolean;
}

/** One page (up to `limit` rows) after `before`, exclusive. */
export async function linkPage(
  db: DB,
  channelId: string,
  filter: LinkListFilter,
  before: LinkPosition | undefined,
  limit: number,
  now: Date,
): Promise<LinkPage> {
  const walk = chooseWalk(channelId, filter, before, now);
  if (!walk) return { rows: [] };
  const { rows } = await sql<LinkListRow>`
    with page as (
      select w.id, w.criado_em from (${walk.rows(walk.checks ? WALK_BUDGET : limit)}) as w
      where w.ok
      order by w.criado_em desc, w.id desc
      limit ${limit}
    )
    select l.id, l.status, l.ambiente, l.cpf_masked, l.referencia_externa, l.expira_em, l.criado_em, l.aberto_em,
           p.numero as proposta_numero, p.status as proposta_status, p.criada_em as proposta_criada_em,
           l.personal_data_erased_at, l.return_url, j.consent_version, j.consent_at,
           (extract(epoch from l.criado_em) * 1000000)::bigint::text as criado_us
    from page
    join links l on l.id = page.id
    left join proposals p on p.link_id = l.id
    left join journeys j on j.link_id = l.id
    order by l.criado_em desc, l.id desc
  `.execute(db);
  if (rows.length >= limit || !walk.checks) return { rows };
  // A short page: the end of the channel's links, or of the walk's budget.
  const edge = await sql<{ walked: number; id: string; criado_us: string }>`
    select count(*) over ()::int as walked, w.id, (extract(epoch from w.criado_em) * 1000000)::bigint::text as criado_us
    from (${walk.rows(WALK_BUDGET)}) as w
    order by w.criado_em, w.id
    limit 1
  `.execute(db);
  const last = edge.rows[0];
  return last && last.walked >= WALK_BUDGET ? { rows, stoppedAt: { criadoUs: last.criado_us, id: last.id } } : { rows };
}

function chooseWalk(channelId: string, filter: LinkListFilter, before: LinkPosition | undefined, now: Date): Walk | undefined {
  // One upper bound, the nearer of the cursor and `ate` (criado_em < ate is (criado_em, id)
  // < (ate, the least uuid)), so that the walk starts there instead of filtering its way to it.
  const upper = nearer(before, filter.ate);
  const bounds = (time: RawBuilder<unknown>, id: RawBuilder<unknown>) => sql`
    (${time}, ${id}) < (${upper.instant}::timestamptz, ${upper.id}::uuid)
    and ${time} >= ${filter.desde ?? '-infinity'}::timestamptz`;
  const linkBounds = bounds(sql`l.criado_em`, sql`l.id`);
  const linksWhere = (condition: RawBuilder<unknown>, ok: RawBuilder<unknown>) => (limit: number) => sql`
    select l.id, l.criado_em, ${ok} as ok from links l
    where l.channel_id = ${channelId} and ${linkBounds} and ${condition}
    order by l.criado_em desc, l.id desc
    limit ${limit}`;
  const { status, propostaStatus, referenciaExterna } = filter;

  if (referenciaExterna !== undefined) {
    const checks = status !== undefined || propostaStatus !== undefined;
    const proposal =
      propostaStatus !== undefined
        ? sql`exists (select 1 from proposals p where p.link_id = l.id and p.status = ${propostaStatus})`
        : sql`true`;
    return {
      rows: linksWhere(sql`l.referencia_externa = ${referenciaExterna}`, sql`${statusTest(status, now)} and ${proposal}`),
      checks,
    };
  }
  if (propostaStatus !== undefined) {
    // A link with a proposal is CONCLUIDO (a final status): any other status matches none.
    if (status !== undefined && status !== 'CONCLUIDO') return undefined;
    return {
      rows: (limit) => sql`
        select p.link_id as id, p.link_criado_em as criado_em, true as ok from proposals p
        where p.channel_id = ${channelId} and p.status = ${propostaStatus}
          and ${bounds(sql`p.link_criado_em`, sql`p.link_id`)}
        order by p.link_criado_em desc, p.link_id desc
        limit ${limit}`,
      checks: false,
    };
  }
  if (status === 'EXPIRADO') {
    // Stored so, or live with its time up and not yet swept: two ordered walks, merged.
    // The second takes the channel's through the sweeper's partial index (links_expiring)
    // first: planned with the order and the bounds, it would walk all its live links.
    const stored = linksWhere(sql`l.status = 'EXPIRADO'`, sql`true`);
    const late = (limit: number) => sql`
      with late as materialized (
        select l.id, l.criado_em from links l
        where l.status in (${LIVE}) and l.expira_em <= ${now} and l.channel_id = ${channelId}
      )
      select l.id, l.criado_em, true as ok from late l
      where ${linkBounds}
      order by l.criado_em desc, l.id desc
      limit ${limit}`;
    return {
      rows: (limit) => sql`
        select * from ((${stored(limit)}) union all (${late(limit)})) as expired
        order by criado_em desc, id desc
        limit ${limit}`,
      checks: false,
    };
  }
  if (status !== undefined) {
    return isLive(status)
      ? { rows: linksWhere(sql`l.status = ${status}`, sql`l.expira_em > ${now}`), checks: true }
      : { rows: linksWhere(sql`l.status = ${status}`, sql`true`), checks: false };
  }
  return { rows: linksWhere(sql`true`, sql`true`), checks: false };
}

/** The status as reads report it, as a condition on `l` (true without a status filter). */
function statusTest(status: LinkStatus | undefined, now: Date): RawBuilder<unknown> {
  if (status === undefined) return sql`true`;
  if (status === 'EXPIRADO') return sql`(l.status = 'EXPIRADO' or (l.status in (${LIVE}) and l.expira_em <= ${now}))`;
  return isLive(status) ? sql`(l.status = ${status} and l.expira_em > ${now})` : sql`l.status = ${status}`;
}
