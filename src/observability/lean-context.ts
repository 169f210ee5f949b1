// The contexts that requests and stored traces start from, when tracing is on. Its own
// module: tracing.ts and the HTTP hooks import it whether or not tracing runs, and it
// loads nothing of the SDK.
import type { Context } from '@opentelemetry/api';

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
