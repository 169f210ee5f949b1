// What the funnel's triggers add to the writes they count (bench/portal.bench.ts): the
// statements a link's life makes, one row each and each its own transaction as the
// service commits them, with the funnel triggers enabled and disabled in alternate
// rounds on the same filled database. Each round's rows are deleted in the state they
// were written in, so the counters stay equal to the links.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { percentiles, type Percentiles } from './webhooks/noisy.ts';

export const WRITE_STEPS = ['insert link', 'open link', 'insert proposal', 'conclude link', 'approve proposal'] as const;
export type WriteStep = (typeof WRITE_STEPS)[number];

export interface WriteCost {
  rounds: number;
  linksPerRound: number;
  with: Record<WriteStep, Percentiles>;
  without: Record<WriteStep, Percentiles>;
}

const STATEMENTS: Record<WriteStep, string> = {
  'insert link': `insert into links (id, channel_id, ambiente, token_hash, cpf_sealed, cpf_hash, cpf_masked, referencia_externa,
                    status, expira_em, criado_em, updated_at)
                  values ($1, $2, 'SANDBOX', $3, $3, $3, '***.456.789-**', 'promotor-1', 'CRIADO', now() + interval '7 days', now(), now())`,
  'open link': `update links set status = 'ABERTO', aberto_em = now(), updated_at = now() where id = $1`,
  'insert proposal': `insert into proposals (link_id, channel_id, status, valor_centavos, parcelas, valor_parcela_centavos, criada_em, updated_at)
                      values ($1, $2, 'CRIADA', 1500000, 24, 78912, now(), now())`,
  'conclude link': `update links set status = 'CONCLUIDO', updated_at = now() where id = $1`,
  'approve proposal': `update proposals set status = 'APROVADA', updated_at = now() where link_id = $1`,
};

export async function measureWrites(url: string, channelId: string, rounds = 6, linksPerRound = 50): Promise<WriteCost> {
  const client = new pg.Client({ connectionString: url, application_name: 'consigna-bench-writes' });
  client.on('error', () => undefined);
  await client.connect();
  const triggers = (
    await client.query<{ table: string; name: string }>(
      `select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where not t.tgisinternal and t.tgname like '%funnel%' and c.relnamespace = 'public'::regnamespace order by 1, 2`,
    )
  ).rows;
  const toggle = async (enable: boolean) => {
    for (const t of triggers) await client.query(`alter table ${t.table} ${enable ? 'enable' : 'disable'} trigger ${t.name}`);
  };
  const times = { with: empty(), without: empty() };
  try {
    for (let round = 0; round < rounds * 2; round++) {
      const enabled = round % 2 === 0;
      await toggle(enabled);
      const ids: string[] = [];
      for (let n = 0; n < linksPerRound; n++) {
        const id = randomUUID();
        ids.push(id);
        const params: Record<WriteStep, unknown[]> = {
          'insert link': [id, channelId, randomBytes(32)],
          'open link': [id],
          'insert proposal': [id, channelId],
          'conclude link': [id],
          'approve proposal': [id],
        };
        for (const step of WRITE_STEPS) {
          const at = performance.now();
          await client.query({ name: step, text: STATEMENTS[step], values: params[step] });
          times[enabled ? 'with' : 'without'][step].push(performance.now() - at);
        }
      }
      await client.query('delete from proposals where link_id = any($1::uuid[])', [ids]);
      await client.query('delete from links where id = any($1::uuid[])', [ids]);
    }
  } finally {
    await toggle(true).catch(() => undefined);
    await client.end();
  }
  const summary = (values: Record<WriteStep, number[]>) =>
    Object.fromEntries(WRITE_STEPS.map((step) => [step, percentiles(values[step])])) as Record<WriteStep, Percentiles>;
  return { rounds, linksPerRound, with: summary(times.with), without: summary(times.without) };
}

const empty = (): Record<WriteStep, number[]> =>
  Object.fromEntries(WRITE_STEPS.map((step) => [step, [] as number[]])) as unknown as Record<WriteStep, number[]>;
