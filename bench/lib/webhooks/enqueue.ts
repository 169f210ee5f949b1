// Queues bench events as the outbox writes them: event row, PENDENTE delivery, one
// NOTIFY, in one transaction (chunks of 5,000 rows per statement).
import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.ts';
import { uuidv7 } from '../../../src/crypto/random.ts';
import { DELIVERIES_CHANNEL } from '../../../src/events/outbox.ts';
import type { BenchEvent } from './bodies.ts';

export async function enqueueEvents(database: Database, channelId: string, events: BenchEvent[]): Promise<void> {
  const at = new Date();
  await database.db.transaction().execute(async (tx) => {
    for (let i = 0; i < events.length; i += 5_000) {
      const chunk = events.slice(i, i + 5_000);
      await sql`
        with ev as (
          insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
          select id, ${channelId}, null, tipo, payload, ${at}
          from unnest(${chunk.map((e) => e.id)}::uuid[], ${chunk.map((e) => e.tipo)}::text[], ${chunk.map((e) => e.body)}::text[])
            as t(id, tipo, payload)
          returning id, tipo
        )
        insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
        select d.id, ev.id, ${channelId}, ev.tipo, 'PENDENTE', 0, ${at}, ${at}
        from ev join unnest(${chunk.map((e) => e.id)}::uuid[], ${chunk.map(() => uuidv7(at.getTime()))}::uuid[]) as d(event_id, id)
          on d.event_id = ev.id
      `.execute(tx);
    }
    await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(tx);
  });
}
