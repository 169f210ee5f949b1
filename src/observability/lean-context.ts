// The contexts that requests and stored traces start from, when tracing is on. Its own
// module: tracing.ts and the HTTP hooks import it whether or not tracing runs, and it
// loads nothing of the SDK.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, ContextManager } from '@opentelemetry/api';

/**
 * The API's Context as a chain of one-value links. The API's own (ROOT_CONTEXT's class)
 * copies its Map and makes three closures on every setValue, and a request sets one or
 * two values; a lookup here walks a chain as short. A context derived from this root is
 * of this class all the way down (setValue is the context's own method).
 */
class LeanContext implements Context {
  private readonly parent: LeanContext | undefined;
  private readonly key: symbol | undefined;
  private readonly value: unknown;

  constructor(parent: LeanContext | undefined, key: symbol | undefined, value: unknown) {
    this.parent = parent;
    this.key = key;
    this.value = value;
  }

  getValue(key: symbol): unknown {
    if (this.key === key) return this.value;
    for (let at = this.parent; at !== undefined; at = at.parent) {
      if (at.key === key) return at.value;
    }
    return undefined;
  }
  setValue(key: symbol, value: unknown): Context {
    return new LeanContext(this, key, value);
  }
  // The nearest link wins: an undefined one hides the key's older value.
  deleteValue(key: symbol): Context {
    return new LeanContext(this, key, undefined);
  }
}

/** An empty context, as the API's ROOT_CONTEXT, for contexts that start here (a request, a stored trace). */
export const LEAN_ROOT: Context = new LeanContext(undefined, undefined, undefined);

/**
 * The context manager tracing.ts installs for the API, over one AsyncLocalStorage, with
 * `run` and `active` for the service's own hot paths (a request's hooks, each statement,
 * each span): the API's context.with and context.active reach the same storage through
 * the API's global lookup, its version check and two rest-argument arrays per call.
 * `bind` wraps functions (the API's contract); unlike the async-hooks manager it does
 * not patch event emitters, which nothing here binds.
 */
export class LeanContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? LEAN_ROOT;
  }
  /** `fn` with `context` as the active one. */
  run<R>(context: Context, fn: () => R): R {
    return this.storage.run(context, fn);
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const storage = this.storage;
    return function bound(this: unknown, ...args: unknown[]) {
      return storage.run(context, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** The process's one: tracing.ts makes it the API's, the hot paths call it directly. */
export const contexts = new LeanContextManager();
