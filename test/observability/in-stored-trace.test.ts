// inStoredTrace's span ends with its work, whatever way the work ends: a value, a rejected
// promise or a synchronous throw, each with the error passed on as it was. Over the real
// exporter (tracing.ts with an OTLP/protobuf endpoint) to a local collector.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inStoredTrace, startTracing } from '../../src/observability/tracing.ts';
import { decodeTraceRequest, type DecodedSpan } from '../helpers/otlp.ts';

const spans: DecodedSpan[] = [];
let server: http.Server;
let stop: () => Promise<void>;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      for (const rs of decodeTraceRequest(Buffer.concat(chunks)).resourceSpans)
        for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  stop = await startTracing(
    {
      endpoint: `http://127.0.0.1:${port}/v1/traces`,
      protocol: 'http/protobuf',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      serviceName: 'consigna-test',
      batch: { scheduleDelayMs: 60_000, maxQueueSize: 2048, maxExportBatchSize: 512, exportTimeoutMs: 5000 },
    },
    {},
  );
});

afterAll(async () => {
  await stop?.();
  await new Promise((resolve) => server.close(resolve));
});

describe('inStoredTrace', () => {
  it("ends the span with the work's outcome and passes the outcome on", async () => {
    const failure = Object.assign(new Error('falhou com o CPF 12345678909'), { code: 'banco_indisponivel' });
    const outcomes = [];
    for (const current of [true, false]) {
      outcomes.push(await inStoredTrace(null, `ok ${current}`, {}, async () => 7, undefined, { current }));
      outcomes.push(
        await inStoredTrace(null, `rejeitada ${current}`, {}, async () => Promise.reject(failure), undefined, { current }).catch(
          (error: unknown) => error,
        ),
      );
      outcomes.push(
        await inStoredTrace(
          null,
          `lancada ${current}`,
          {},
          () => {
            throw new TypeError('síncrono');
          },
          undefined,
          { current },
        ).catch((error: unknown) => error),
      );
    }
    expect(outcomes[0]).toBe(7);
    expect(outcomes[1]).toBe(failure);
    expect(outcomes[2]).toBeInstanceOf(TypeError);
    expect(outcomes[3]).toBe(7);
    expect(outcomes[4]).toBe(failure);
    expect(outcomes[5]).toBeInstanceOf(TypeError);

    await stop();
    const byName = new Map(spans.map((s) => [s.name, s]));
    for (const current of [true, false]) {
      const ok = byName.get(`ok ${current}`)!;
      const rejected = byName.get(`rejeitada ${current}`)!;
      const thrown = byName.get(`lancada ${current}`)!;
      for (const span of [ok, rejected, thrown]) {
        expect(span, `span of ${current}`).toBeDefined();
        expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      }
      expect(ok.status.code ?? 0).toBe(0);
      expect(ok.attributes).toEqual([]);
      // The code, never the message (it may quote a value).
      expect(rejected.status.code).toBe(2);
      expect(rejected.attributes).toEqual([{ key: 'error.type', value: { stringValue: 'banco_indisponivel' } }]);
      expect(thrown.status.code).toBe(2);
      expect(thrown.attributes).toEqual([{ key: 'error.type', value: { stringValue: 'TypeError' } }]);
    }
    expect(JSON.stringify(spans)).not.toContain('12345678909');
  });
});
