// Sends one signed request to a webhook: over the network through the SSRF-safe
// client, or straight into this service's own test inbox when the URL is the inbox
// URL (same headers, same signature, no network). The headers are built here only,
// for every path (worker, resend, test event, inbox): ours (X-Service-*) and the
// Standard Webhooks ones (webhook-id, webhook-timestamp, webhook-signature), signed
// with the same secrets at the same timestamp (docs/rules.md §5).
import type { Clock } from '../../clock.ts';
import type { Outbound, OutboundResult } from '../outbound.ts';
import { signatureHeader, standardSignatureHeader } from '../signature.ts';
import { inboxTokenOf } from '../inbox-address.ts';
import {
  activeTracer,
  inStoredTrace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Span,
} from '../../observability/tracing.ts';

export interface OutgoingEvent {
  url: string;
  body: string;
  /** Also the Standard Webhooks `webhook-id`: the same on every attempt of the event. */
  eventId: string;
  tipo: string;
  attempt: number;
  /** Current first, then the previous during its window. */
  secrets: string[];
  /** For the attempt's span (tracing on): the delivery, and the trace of the change that recorded the event. */
  deliveryId?: string;
  channelId?: string;
  traceContext?: string | null;
}

/** The test inbox, seen from the delivery side: answers with the status it is set to. */
export interface InboxReceiver {
  /** undefined when no inbox has this token (answered as HTTP 404). */
  receive(token: string, headers: Record<string, string>, body: string): Promise<number | undefined>;
}

export interface Deliverer {
  send(event: OutgoingEvent): Promise<OutboundResult>;
}

export const USER_AGENT = 'Consigna-Webhooks/1.0';

// Parsed webhook URLs kept (a handful per channel at most: the current and past ones).
const MAX_URLS = 1024;

export function createDeliverer(options: {
  outbound: Outbound;
  clock: Clock;
  publicBaseUrl: string;
  inbox?: InboxReceiver;
}): Deliverer {
  const urls = new Map<string, URL>();
  const parse = (raw: string): URL => {
    let url = urls.get(raw);
    if (!url) {
      url = new URL(raw);
      if (urls.size >= MAX_URLS) urls.clear();
      urls.set(raw, url);
    }
    return url;
  };
  const inboxOf = (event: OutgoingEvent) => (options.inbox ? inboxTokenOf(event.url, options.publicBaseUrl) : undefined);
  const send = async (event: OutgoingEvent, inboxToken = inboxOf(event)): Promise<OutboundResult> => {
    const timestamp = Math.floor(options.clock.now().getTime() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-service-signature': signatureHeader(event.secrets, timestamp, event.body),
      'x-service-event-id': event.eventId,
      'x-service-event-type': event.tipo,
      'x-service-delivery-attempt': String(event.attempt),
      'webhook-id': event.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignatureHeader(event.secrets, event.eventId, timestamp, event.body),
    };
    if (inboxToken === undefined || !options.inbox) {
      return options.outbound.post(parse(event.url), event.body, headers);
    }
    const started = performance.now();
    const status = (await options.inbox.receive(inboxToken, headers, event.body)) ?? 404;
    const latencyMs = Math.round(performance.now() - started);
    const ok = status >= 200 && status < 300;
    return ok ? { ok, status, latencyMs } : { ok, status, latencyMs, error: `HTTP ${status}` };
  };
  return {
    // Every attempt is a span (tracing on), in the trace of the change that caused the
    // event when it has one (the worker's attempts), or in the current one.
    // The span is the current one only for the inbox, whose statements are its children.
    send: (event) => {
      if (activeTracer() === undefined) return send(event);
      const inboxToken = inboxOf(event);
      return inStoredTrace(
        event.traceContext,
        `webhook ${event.tipo}`,
        attemptAttributes(event),
        (span) =>
          send(event, inboxToken).then((answer) => {
            if (span) traceAnswer(span, answer);
            return answer;
          }),
        SpanKind.CLIENT,
        { current: inboxToken !== undefined },
      );
    },
  };
}

// What an attempt's span says: ids, type, attempt and the answer's status. Never the URL,
// a header, the body or the answer's body.
function attemptAttributes(event: OutgoingEvent): Attributes {
  return {
    'http.request.method': 'POST',
    'http.request.resend_count': event.attempt - 1,
    'consigna.delivery.attempt': event.attempt,
    'consigna.event.id': event.eventId,
    'consigna.event.type': event.tipo,
    ...(event.deliveryId ? { 'consigna.delivery.id': event.deliveryId } : {}),
    ...(event.channelId ? { 'consigna.channel.id': event.channelId } : {}),
  };
}

function traceAnswer(span: Span, answer: OutboundResult): void {
  if (answer.status !== undefined) span.setAttribute('http.response.status_code', answer.status);
  if (answer.ok) return;
  span.setAttribute('error.type', answer.status !== undefined ? String(answer.status) : 'sem_resposta');
  span.setStatus({ code: SpanStatusCode.ERROR });
}
