// Preloaded with `--import` (NODE_OPTIONS) into a process under test: prints a line on
// stderr for each OpenTelemetry package the process resolves, the API excepted, so that a
// test can tell whether the SDK was loaded (test/observability/tracing-off.test.ts).
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(resolved.url)?.[1];
    if (name && name !== '@opentelemetry/api' && !seen.has(name)) {
      seen.add(name);
      process.stderr.write(`module-probe: loaded ${name}\n`);
    }
    return resolved;
  },
});
