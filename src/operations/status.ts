// What `consigna status` shows an operator at a glance: the delivery queue, the channels
// whose endpoints are failing, the sweeper's last round and the database's size by table.
// Read-only; the same on both databases.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { channelsHealth, type ChannelHealth } from '../webhooks/webhooks.service.ts';
import { readLastSweep, type LastSweep } from '../sweeper/sweep-record.ts';

export interface ServiceStatus {
  agora: string;
  fila: { pendentes: number; vencidas: number; maisAntigaVencidaEm?: string; idadeMaisAntigaSegundos: number };
  canaisComFalha: ChannelHealth[];
  /** The delivery workers seen in the last minute, with their attempt pool at their last heartbeat. */
  trabalhadores: WorkerPool[];
  ultimaVarredura?: LastSweep;
  tabelas: Array<{ tabela: string; linhas: number; bytes: number }>;
  bancoBytes: number;
}

export interface WorkerPool {
  id: string;
  vistoEm: string;
  /** Slots held by requests answering now (of CONSIGNA_WORKER_CONCURRENCY). */
  vagasOcupadas: number;
  /** Of those, held by slow channels' requests. */
  vagasDeCanaisLentos: number;
  /** Requests past CONSIGNA_WORKER_SLOW_AFTER_MS: open, holding no slot. */
  pedidosLentos: number;
  /** How long the oldest of those has been open. */
  lentoMaisAntigoSegundos: number;
  canaisLentos: number;
}

export async function serviceStatus(deps: Pick<Context, 'database' | 'clock'>): Promise<ServiceStatus> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const { rows: queue } = await sql<{ pending: number; due: number; oldest: Date | null }>`
    select count(*)::int as pending,
           count(*) filter (where next_attempt_at <= ${now})::int as due,
           min(next_attempt_at) filter (where next_attempt_at <= ${now}) as oldest
    from deliveries where status = 'PENDENTE'`.execute(db);
  const { rows: tables } = await sql<{ tabela: string; linhas: number; bytes: number }>`
    select c.relname as tabela, greatest(c.reltuples, 0)::bigint::float8 as linhas,
           pg_total_relation_size(c.oid)::float8 as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = current_schema()
    order by pg_total_relation_size(c.oid) desc, c.relname`.execute(db);
  const { rows: size } = await sql<{ bytes: number }>`select pg_database_size(current_database())::float8 as bytes`.execute(db);
  const workers = await db
    .selectFrom('delivery_workers')
    .selectAll()
    .where('seen_at', '>', new Date(now.getTime() - 60_000))
    .orderBy('seen_at', 'desc')
    .execute();
  const failing = (await channelsHealth(deps)).filter((c) => c.saude.falhasSeguidas > 0 || c.saude.contido);
  const oldest = queue[0]?.oldest ?? null;
  const last = await readLastSweep(db);
  return {
    agora: now.toISOString(),
    fila: {
      pendentes: queue[0]?.pending ?? 0,
      vencidas: queue[0]?.due ?? 0,
      ...(oldest ? { maisAntigaVencidaEm: oldest.toISOString() } : {}),
      idadeMaisAntigaSegundos: oldest ? Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)) : 0,
    },
    canaisComFalha: failing,
    trabalhadores: workers.map((w) => ({
      id: w.id,
      vistoEm: w.seen_at.toISOString(),
      vagasOcupadas: w.slots_busy,
      vagasDeCanaisLentos: w.slots_slow,
      pedidosLentos: w.requests_slow,
      lentoMaisAntigoSegundos: w.slow_oldest_seconds,
      canaisLentos: w.channels_slow,
    })),
    ...(last ? { ultimaVarredura: last } : {}),
    tabelas: tables.map((t) => ({ tabela: t.tabela, linhas: Number(t.linhas), bytes: Number(t.bytes) })),
    bancoBytes: Number(size[0]?.bytes ?? 0),
  };
}
