// The embedded service's control socket. Only one process may open the embedded data
// folder, so while the service runs, the operator's commands (`consigna backup`,
// `consigna channels …`) ask it to do their work: a Unix socket in the data folder,
// mode 0600 inside the 0700 folder, so only the folder's owner can connect (no network
// port). One request per connection: one line of JSON, an object with a single key
// naming the command (`{"backup":"/abs/file"}`, `{"channels":{…}}`); one answer line,
// the command's result or `{"error":"…"}`; then the connection is closed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

export const CONTROL_SOCKET = 'control.sock';
/** A request line longer than this is refused (the largest, a channels create of 1,000 names, is a few hundred KB). */
export const MAX_CONTROL_REQUEST_BYTES = 1024 * 1024;
/** The request line must arrive within this; the command itself may take longer. */
const REQUEST_DEADLINE_MS = 10_000;
/** An answer longer than this is not read (the CLI's side). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Connections served at once; more are closed on arrival. */
const MAX_CONNECTIONS = 4;

/** Runs one command: its answer is sent as JSON; what it throws is sent as `{"error": message}`. */
export type ControlHandler = (payload: unknown) => Promise<Record<string, unknown>>;

/** The socket could not be used, or the service answered with an error (its message, for the operator). */
export class ControlSocketError extends Error {}

export const controlSocketPath = (dataDir: string): string => path.join(dataDir, CONTROL_SOCKET);

export const hasControlSocket = (dataDir: string): boolean => {
  try {
    return fs.statSync(controlSocketPath(dataDir)).isSocket();
  } catch {
    return false;
  }
};

export async function serveControlSocket(
  dataDir: string,
  handlers: Record<string, ControlHandler>,
  log?: Logger,
): Promise<() => Promise<void>> {
  const socketPath = controlSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true }); // left by a process that died; the data-folder lock says we own the folder
  const server = net.createServer((socket) => serveOne(socket, handlers, log));
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // Created with the umask's mode: nobody else can reach it before this chmod, since the
  // data folder itself is 0700 (data-dir-permissions.ts).
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

function serveOne(socket: net.Socket, handlers: Record<string, ControlHandler>, log: Logger | undefined): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let state: 'reading' | 'running' | 'answered' = 'reading';
  const answer = (value: Record<string, unknown>) => {
    if (state === 'answered') return;
    state = 'answered';
    socket.removeListener('data', onData);
    socket.setTimeout(0);
    socket.end(`${JSON.stringify(value)}\n`);
    // Whatever the client still sends is read and dropped until it closes; one that
    // never does is let go.
    socket.resume();
    setTimeout(() => socket.destroy(), 5_000).unref();
  };
  const refuse = (error: string) => {
    log?.warn({ error }, 'control socket: request refused');
    answer({ error });
  };
  const onData = (chunk: Buffer) => {
    const newline = chunk.indexOf(0x0a);
    const used = newline === -1 ? chunk : chunk.subarray(0, newline);
    chunks.push(used);
    size += used.length;
    if (size > MAX_CONTROL_REQUEST_BYTES) return refuse(`pedido grande demais: o limite é ${MAX_CONTROL_REQUEST_BYTES} bytes`);
    if (newline === -1) return;
    state = 'running';
    socket.removeListener('data', onData);
    socket.pause();
    socket.setTimeout(0);
    void run(Buffer.concat(chunks).toString('utf8'));
  };
  const run = async (line: string) => {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch {
      return refuse('pedido inválido: uma linha de JSON');
    }
    const keys = request !== null && typeof request === 'object' && !Array.isArray(request) ? Object.keys(request) : [];
    const command = keys.length === 1 && Object.hasOwn(handlers, keys[0]!) ? keys[0]! : undefined;
    if (command === undefined)
      return refuse(`pedido inválido: um objeto com um só comando (${Object.keys(handlers).join(', ')})`);
    log?.info({ command }, 'control socket: command');
    try {
      answer(await handlers[command]!((request as Record<string, unknown>)[command]));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log?.warn({ command, error: message }, 'control socket: command failed');
      answer({ error: message });
    }
  };
  socket.on('error', () => undefined);
  socket.on('data', onData);
  socket.setTimeout(REQUEST_DEADLINE_MS, () => refuse('pedido incompleto: nenhuma linha recebida a tempo'));
  // Closed before a whole line: nothing to run, no one to answer.
  socket.on('end', () => {
    if (state === 'reading') socket.destroy();
  });
}

/** The CLI's side: sends one request to the running service and returns its answer (its `error` thrown). */
export function askControlSocket(
  dataDir: string,
  request: Record<string, unknown>,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlSocketPath(dataDir));
    const chunks: Buffer[] = [];
    let size = 0;
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new ControlSocketError(`the running service did not answer within ${Math.round(timeoutMs / 1000)} s`)),
    );
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return socket.destroy(new ControlSocketError('the running service answered too much'));
      chunks.push(chunk);
    });
    socket.on('error', (error) =>
      reject(
        error instanceof ControlSocketError
          ? error
          : new ControlSocketError(`cannot reach the running service through ${CONTROL_SOCKET}: ${error.message}`),
      ),
    );
    socket.on('end', () => {
      let answer: unknown;
      try {
        answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reject(new ControlSocketError('the running service gave no answer'));
      }
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
        return reject(new ControlSocketError('the running service gave no answer'));
      const { error } = answer as { error?: unknown };
      if (error !== undefined) return reject(new ControlSocketError(String(error)));
      resolve(answer as Record<string, unknown>);
    });
  });
}
