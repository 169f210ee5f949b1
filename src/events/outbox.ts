// Events are written in the transaction of the change that caused them, together
// with the delivery for the channel's webhook when it subscribes to the type. The
// NOTIFY wakes the workers on commit; a rollback leaves neither event nor delivery.
import { sql } from 'kysely';
import type { Tx } from '../db/database.ts';
import { notify } from '../db/database.ts';
import { uuidv7 } from '../crypto/random.ts';
import type { EventBody } from './event-body.ts';
import { currentTraceparent } from '../observability/tracing.ts';

export const DELIVERIES_CHANNEL = 'consigna_deliveries';

export async function recordEvent(tx: Tx, channelId: string, event: EventBody): Promise<void> {
  const at = new Date(event.ocorridoEm);
  await tx
    .insertInto('events')
    .values({
      id: event.id,
      channel_id: channelId,
      link_id: event.link?.id ?? null,
      tipo: event.tipo,
      payload: JSON.stringify(event),
      ocorrido_em: at,
      // The span of the change that caused it: its delivery attempts continue that trace.
      trace_context: currentTraceparent(),
    })
    .execute();
  // FOR KEY SHARE orders this insert with a concurrent DELETE /v1/webhooks (whose row
  // delete conflicts with it): either the delete waits for this commit and then removes
  // the new pending delivery too, or this waits for the delete and finds no webhook.
  // A plain read would see the webhook being deleted and leave an orphan PENDENTE row,
  // later sent to whatever webhook the channel registers next.
  const { rows } = await sql<{ id: string }>`
    insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, criado_em)
    select ${uuidv7(at.getTime())}, ${event.id}, w.channel_id, ${event.tipo}, 'PENDENTE', 0, ${at}, ${at}
    from webhooks w
    where w.channel_id = ${channelId}
      and (cardinality(w.eventos) = 0 or ${event.tipo} = any (w.eventos))
    for key share of w
    returning id
  `.execute(tx);
  if (rows.length > 0) await notify(tx, DELIVERIES_CHANNEL, '');
}
