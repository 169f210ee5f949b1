// Tracing off costs nothing of OpenTelemetry's SDK: without an OTLP endpoint a real
// `consigna serve` answering requests never loads it (only @opentelemetry/api, whose calls
// do nothing then). With one, the same probe sees the SDK loaded: the probe can tell.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, serveWithChannel } from '../helpers/processes.ts';
import { startOtlpCollector, type OtlpCollector } from '../helpers/otlp.ts';

const PROBE = path.resolve(import.meta.dirname, '../helpers/module-probe.ts');

let collector: OtlpCollector | undefined;

afterAll(async () => {
  await killAll();
  await collector?.close();
});

/** The OpenTelemetry packages a `serve` loaded while it answered a request and stopped. */
async function loadedBy(env: Record<string, string>): Promise<string[]> {
  const served = await serveWithChannel({ NODE_OPTIONS: `--import ${PROBE}`, ...env });
  try {
    const answer = await fetch(`${served.serve.url}/v1/links/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: served.bearer },
    });
    expect(answer.status).toBe(404);
  } finally {
    await served.close();
  }
  return [...served.serve.output().matchAll(/^module-probe: loaded (\S+)$/gm)].map((m) => m[1]!);
}

describe('tracing off', () => {
  it('loads nothing of OpenTelemetry but its API without an OTLP endpoint', async () => {
    expect(await loadedBy({})).toEqual([]);
  }, 120_000);

  it('loads the SDK with one (the probe sees it)', async () => {
    collector = await startOtlpCollector();
    expect(await loadedBy({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto']),
    );
  }, 120_000);
});
