// The events of the throughput run, the same for every sender: Consigna's queue
// (rows in `events` and `deliveries`), graphile-worker's jobs and the raw loop all
// carry these exact bodies, built the way the service builds a proposal event.
import { proposalEvent, type EventBody } from '../../../src/events/event-body.ts';

export interface BenchEvent {
  id: string;
  tipo: string;
  /** The exact JSON text that is signed and sent. */
  body: string;
}

/** A uuid (v7 layout) from a run tag and an index: distinct, valid for PostgreSQL, same in every process. */
export function eventId(tag: number, index: number): string {
  const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
  return `${hex(tag >>> 0, 8)}-0000-7000-8000-${hex(index, 12)}`;
}

/** `count` proposal events dated `at`, ids from `eventId(tag, 0…)`. */
export function benchEvents(tag: number, count: number, at: Date): BenchEvent[] {
  const events: BenchEvent[] = [];
  for (let i = 0; i < count; i++) {
    const event: EventBody = proposalEvent({
      tipo: 'proposta.aprovada',
      at,
      ambiente: 'SANDBOX',
      link: { id: eventId(tag + 1, i), referenciaExterna: `bench-${i}` },
      proposta: { numero: 100_001 + i, status: 'APROVADA', valor: 1_500_000, parcelas: 24, valorParcela: 78_912 },
    });
    event.id = eventId(tag, i);
    events.push({ id: event.id, tipo: event.tipo, body: JSON.stringify(event) });
  }
  return events;
}
