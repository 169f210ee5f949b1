// A span per database statement run within a trace, when tracing is on
// (src/observability/tracing.ts). The span is named after the statement's summary
// ("select links", "update deliveries") and carries nothing else about it: no SQL text,
// no parameter values.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ServiceTracer } from '../observability/tracing.ts';

export function tracedDialect(dialect: Dialect, tracer: () => ServiceTracer | undefined): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => tracedDriver(dialect.createDriver(), tracer),
  };
}

// A pooled connection's traced wrapper, kept on the connection; the connection, kept on its wrapper.
const WRAPPER = Symbol('consigna.traced');
const INNER = Symbol('consigna.inner');

type Wrapped = DatabaseConnection & { [WRAPPER]?: Wrapper };
type Wrapper = DatabaseConnection & { [INNER]: DatabaseConnection };

function tracedDriver(driver: Driver, tracer: () => ServiceTracer | undefined): Driver {
  // Kysely runs its statements through the wrapper; the driver gets back its own
  // connection, so that what it runs itself (begin, commit, savepoints) makes no span and
  // a driver relying on its own class keeps working. One wrapper per pooled connection,
  // made the first time it is handed out and kept on it.
  const wrap = (connection: Wrapped): DatabaseConnection => {
    let wrapper = connection[WRAPPER];
    if (!wrapper) {
      wrapper = {
        executeQuery: <R>(query: CompiledQuery, queryOptions?: Parameters<DatabaseConnection['executeQuery']>[1]) =>
          traceStatement(tracer(), query, () => connection.executeQuery<R>(query, queryOptions)),
        streamQuery: (query, chunkSize, queryOptions) => connection.streamQuery(query, chunkSize, queryOptions),
        [INNER]: connection,
      };
      connection[WRAPPER] = wrapper;
    }
    return wrapper;
  };
  const own = (connection: DatabaseConnection) => (connection as Partial<Wrapper>)[INNER] ?? connection;
  return {
    init: (options) => driver.init(options),
    acquireConnection: (options) => driver.acquireConnection(options).then(wrap),
    beginTransaction: (connection, settings) => driver.beginTransaction(own(connection), settings),
    commitTransaction: (connection) => driver.commitTransaction(own(connection)),
    rollbackTransaction: (connection) => driver.rollbackTransaction(own(connection)),
    ...(driver.savepoint ? { savepoint: (connection, name, compile) => driver.savepoint!(own(connection), name, compile) } : {}),
    ...(driver.rollbackToSavepoint
      ? { rollbackToSavepoint: (connection, name, compile) => driver.rollbackToSavepoint!(own(connection), name, compile) }
      : {}),
    ...(driver.releaseSavepoint
      ? { releaseSavepoint: (connection, name, compile) => driver.releaseSavepoint!(own(connection), name, compile) }
      : {}),
    releaseConnection: (connection, options) => driver.releaseConnection(own(connection), options),
    destroy: (options) => driver.destroy(options),
  };
}

function traceStatement<R>(
  tracer: ServiceTracer | undefined,
  query: CompiledQuery,
  run: () => Promise<QueryResult<R>>,
): Promise<QueryResult<R>> {
  // Only inside a recorded trace: the worker's claims and the sweeper's rounds, on their
  // own, would each be a trace of one span, by the thousand; under a span the sampler left
  // out, a statement's span would be dropped anyway.
  if (!tracer || trace.getSpan(context.active())?.isRecording() !== true) return run();
  return traced(tracer, query, run);
}

async function traced<R>(
  tracer: ServiceTracer,
  query: CompiledQuery,
  run: () => Promise<QueryResult<R>>,
): Promise<QueryResult<R>> {
  const summary = summaryOf(query.sql);
  const span = tracer.startSpan(summary, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'postgresql', 'db.query.summary': summary },
  });
  try {
    const result = await run();
    span.setAttribute('db.response.returned_rows', Number(result.numAffectedRows ?? result.rows.length));
    return result;
  } catch (error) {
    // PostgreSQL's SQLSTATE (23505, 40001…), never the message: it can quote a value.
    const code = (error as { code?: unknown } | null)?.code;
    const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
    span.setAttribute('error.type', sqlState ?? 'Error');
    if (sqlState) span.setAttribute('db.response.status_code', sqlState);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

const summaries = new Map<string, string>();
const MAX_SUMMARIES = 1000;

/**
 * "select links", "insert deliveries", "update deliveries": the operation and the first
 * table it names. A statement made of CTEs is named after the first table it changes.
 * Kysely emits a small fixed set of texts, so this is a map lookup after the first time.
 */
export function summaryOf(text: string): string {
  let summary = summaries.get(text);
  if (summary === undefined) {
    summary = summarise(text);
    if (summaries.size >= MAX_SUMMARIES) summaries.clear();
    summaries.set(text, summary);
  }
  return summary;
}

const IDENT = String.raw`"?([a-z_][a-z0-9_]*)"?`;
const CHANGE = new RegExp(String.raw`^(insert\s+into|update|delete\s+from)\s+${IDENT}`, 'i');
// Anywhere in the text: a data-modifying CTE (not "for update", "do update", "for no key update").
const CHANGE_ANYWHERE = new RegExp(String.raw`(?<!\b(?:for|do|key)\s+)\b(insert\s+into|update|delete\s+from)\s+${IDENT}`, 'i');
const FROM = new RegExp(String.raw`\bfrom\s+${IDENT}`, 'i');
const VERB = /^(select|insert|update|delete)\b/i;

function summarise(text: string): string {
  const verb = /^\s*\(?\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? 'query';
  if (verb !== 'with' && verb !== 'select' && verb !== 'insert' && verb !== 'update' && verb !== 'delete') return verb;
  // After its CTEs (each in parentheses), a statement's own verb is the first one outside them.
  const main = verb === 'with' ? mainStatement(text) : text.trimStart();
  // A statement that selects from CTEs that change rows is named after the first change.
  const change = CHANGE.exec(main) ?? (verb === 'with' ? CHANGE_ANYWHERE.exec(text) : null);
  if (change) return `${change[1]!.split(/\s+/)[0]!.toLowerCase()} ${change[2]}`;
  const from = FROM.exec(main);
  return from ? `select ${from[1]}` : 'select';
}

function mainStatement(text: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 4; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && /[a-z]/i.test(c!) && /\W/.test(text[i - 1]!) && VERB.test(text.slice(i, i + 7))) {
      return text.slice(i);
    }
  }
  return '';
}
