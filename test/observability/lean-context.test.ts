import { describe, expect, it } from 'vitest';
import { context, createContextKey, trace, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { LeanContextManager, LEAN_ROOT } from '../../src/observability/lean-context.ts';

// The request's and the stored trace's contexts start from LEAN_ROOT: it must behave as
// the API's ROOT_CONTEXT does, value for value.
describe('LEAN_ROOT', () => {
  const a = createContextKey('a');
  const b = createContextKey('b');

  it('sets, reads and deletes values as ROOT_CONTEXT does, never changing a context it derives from', () => {
    for (const root of [ROOT_CONTEXT, LEAN_ROOT]) {
      const one = root.setValue(a, 1);
      const two = one.setValue(b, 2).setValue(a, 3);
      const gone = two.deleteValue(a);
      expect([root.getValue(a), one.getValue(a), one.getValue(b)]).toEqual([undefined, 1, undefined]);
      expect([two.getValue(a), two.getValue(b)]).toEqual([3, 2]);
      expect([gone.getValue(a), gone.getValue(b), two.getValue(a)]).toEqual([undefined, 2, 3]);
      expect(gone.deleteValue(b).setValue(a, 4).getValue(a)).toBe(4);
    }
  });

  it('carries a span through the API and the context manager', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const span = trace.wrapSpanContext({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: 1,
      });
      const active = trace.setSpan(LEAN_ROOT, span);
      expect(trace.getSpan(LEAN_ROOT)).toBeUndefined();
      expect(context.with(active, () => trace.getSpan(context.active()))).toBe(span);
      expect(trace.getSpan(trace.deleteSpan(active))).toBeUndefined();
    } finally {
      context.disable();
    }
  });
});

// tracing.ts installs it as the API's manager and the request hooks, statements and spans
// call it directly: both ways must see one context, across awaits, and restore the outer one.
describe('LeanContextManager', () => {
  const key = createContextKey('k');

  it('keeps the context it runs with across awaits, for direct calls and the API alike, and restores the outer one', async () => {
    const manager = new LeanContextManager();
    context.setGlobalContextManager(manager);
    try {
      const outer = LEAN_ROOT.setValue(key, 'fora');
      const inner = outer.setValue(key, 'dentro');
      expect(manager.active()).toBe(LEAN_ROOT);
      const seen = await manager.run(outer, async () => {
        const before = manager.active().getValue(key);
        const nested = await context.with(
          inner,
          async function (this: unknown, a: number, b: number) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            return [context.active().getValue(key), manager.active().getValue(key), this, a + b];
          },
          'este',
          2,
          3,
        );
        await Promise.resolve();
        return [before, ...nested, manager.active().getValue(key)];
      });
      expect(seen).toEqual(['fora', 'dentro', 'dentro', 'este', 5, 'fora']);
      expect(manager.active()).toBe(LEAN_ROOT);

      // bind: the function runs in the bound context wherever it is called from.
      const bound = context.bind(inner, function (this: unknown, n: number) {
        return [manager.active().getValue(key), this, n];
      });
      expect(manager.run(outer, () => bound.call('alvo', 7))).toEqual(['dentro', 'alvo', 7]);
      const notAFunction = { x: 1 };
      expect(manager.bind(inner, notAFunction)).toBe(notAFunction);
    } finally {
      context.disable();
    }
    // Disabled (tracing stopped): nothing is active until the next run.
    expect(new LeanContextManager().active()).toBe(LEAN_ROOT);
  });
});
