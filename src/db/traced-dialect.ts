// A span per database statement run within a trace, when tracing is on
// (src/observability/tracing.ts). The span is named after the statement's summary
// ("select links", "update deliveries") and carries nothing else about it: no SQL text,
// no parameter values.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { context, trace, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';

export function tracedDialect(dialect: Dialect, tracer: () => Tracer | undefined): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => tracedDriver(dialect.createDriver(), tracer),
  };
}

function tracedDriver(driver: Driver, tracer: () => Tracer | undefined): Driver {
  // The driver gets back its own connection: drivers may rely on their own class. One
  // wrapper per pooled connection, made the first time it is handed out.
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const own = (connection: DatabaseConnection) => inner.get(connection) ?? connection;
  const wrap = (connection: DatabaseConnection): DatabaseConnection => {
    let traced = wrappers.get(connection);
    if (!traced) {
      traced = {
        executeQuery: <R>(query: CompiledQuery, queryOptions?: Parameters<DatabaseConnection['executeQuery']>[1]) =>
          traceStatement(tracer(), query, () => connection.executeQuery<R>(query, queryOptions)),
        streamQuery: (query, chunkSize, queryOptions) => connection.streamQuery(query, chunkSize, queryOptions),
      };
      wrappers.set(connection, traced);
      inner.set(traced, connection);
    }
    return traced;
  };
  return {
    init: (options) => driver.init(options),
    acquireConnection: async (options) => wrap(await driver.acquireConnection(options)),
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
  tracer: Tracer | undefined,
  query: CompiledQuery,
  run: () => Promise<QueryResult<R>>,
): Promise<QueryResult<R>> {
  // Only inside a sampled trace: the worker's claims and the sweeper's rounds, on their own,
  // would each be a trace of one span, by the thousand; in a trace the sampler left out,
  // a statement's span would be dropped anyway. (The driver's own promise, then: no
  // async function's promise around it.)
  if (!tracer || trace.getSpan(context.active())?.isRecording() !== true) return run();
  return traced(tracer, query, run);
}

async function traced<R>(tracer: Tracer, query: CompiledQuery, run: () => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
  const summary = summaryOf(query.sql);
  const span = tracer.startSpan(summary, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'postgresql', 'db.query.summary': summary },
  });
  try {
    const result = await run();
    if (result.numAffectedRows !== undefined) span.setAttribute('db.response.returned_rows', Number(result.numAffectedRows));
    else span.setAttribute('db.response.returned_rows', result.rows.length);
    return result;
  } catch (error) {
    // PostgreSQL's SQLSTATE (23505, 40001…), never the message: it can quote a value.
    const code = (error as { code?: unknown }).code;
    span.setAttribute('error.type', typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : 'Error');
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) span.setAttribute('db.response.status_code', code);
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
