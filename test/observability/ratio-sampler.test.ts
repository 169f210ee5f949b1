// The traceidratio decision made from an id's bytes (ratio-sampler.ts) against the SDK's
// own TraceIdRatioBasedSampler on the same ids: the same spans must be kept either way.
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, TraceFlags } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SamplingDecision, TraceIdRatioBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { LeanTracer } from '../../src/observability/lean-tracer.ts';
import { RatioSampler } from '../../src/observability/ratio-sampler.ts';

const RATIOS = [0, 1e-9, 0.1, 0.25, 0.5, 0.9, 0.999999, 1, -1, 2, Number.NaN];
const ignore: SpanProcessor = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
const sdkSamples = (sdk: TraceIdRatioBasedSampler, traceId: string) =>
  sdk.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED;

describe('traceidratio from the trace id’s bytes', () => {
  it('decides as the SDK’s sampler on the same ids, edge ids and ratios included', () => {
    const ids = [
      Buffer.alloc(16, 0xff),
      Buffer.from('00000000000000000000000000000001', 'hex'),
      Buffer.from('80000000000000000000000000000000', 'hex'),
      Buffer.from('7fffffff7fffffff7fffffff7ffffffe', 'hex'),
      ...Array.from({ length: 4000 }, () => randomBytes(16)),
    ];
    for (const ratio of RATIOS) {
      const ours = new RatioSampler(ratio);
      const sdk = new TraceIdRatioBasedSampler(ratio);
      // At an offset, as the tracer reads ids out of its pool of random bytes.
      const differing = ids.filter((id) => {
        const pooled = Buffer.concat([randomBytes(5), id, randomBytes(3)]);
        return ours.sampledBytes(pooled, 5) !== sdkSamples(sdk, id.toString('hex'));
      });
      expect(differing.map((id) => `${ratio}: ${id.toString('hex')}`)).toEqual([]);
      expect(ours.shouldSample(ROOT_CONTEXT, ids[5]!.toString('hex')).decision).toBe(
        sdk.shouldSample(ROOT_CONTEXT, ids[5]!.toString('hex')).decision,
      );
    }
  });

  it('keeps, in the tracer, the root spans the SDK’s sampler would keep, and their share is the ratio', () => {
    for (const parentBased of [false, true]) {
      for (const ratio of [0, 0.1, 0.5, 1]) {
        const tracer = new LeanTracer({
          resource: resourceFromAttributes({ 'service.name': 'consigna-teste' }),
          scope: { name: 'consigna' },
          processor: ignore,
          sampler: new RatioSampler(ratio),
          parentBased,
        });
        const sdk = new TraceIdRatioBasedSampler(ratio);
        let kept = 0;
        const n = 5000;
        for (let i = 0; i < n; i++) {
          const span = tracer.startSpan('GET /v1/links/:id', {}, ROOT_CONTEXT);
          const { traceId, traceFlags } = span.spanContext();
          const sampled = (traceFlags & TraceFlags.SAMPLED) !== 0;
          expect(span.isRecording()).toBe(sampled);
          expect(sampled, `${ratio} ${traceId}`).toBe(sdkSamples(sdk, traceId));
          if (sampled) kept += 1;
          span.end();
        }
        expect(Math.abs(kept / n - ratio)).toBeLessThan(0.03);
      }
    }
  });
});
