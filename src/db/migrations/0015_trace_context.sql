-- OpenTelemetry traces (docs/observability.md "Traces"): the W3C traceparent of the span that created
-- a link, and of the span that recorded an event. A link's journey steps and proposal
-- changes continue the link's trace; an event's delivery attempts, in whichever worker
-- process, continue the event's. null when tracing is off (nothing is written then).
alter table links add column trace_context text;
alter table events add column trace_context text;
