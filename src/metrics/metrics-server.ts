// /metrics on an address of its own (CONSIGNA_METRICS_LISTEN): kept off the public API
// port, and served by every role, the worker's included (its delivery metrics live in
// its own process). A bare node:http server: one route, nothing else to expose.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from '../context.ts';
import { metricsFor } from './metrics.ts';
import { metricsAuthorized } from './metrics-access.ts';

export async function startMetricsServer(
  ctx: Pick<Context, 'config' | 'database' | 'clock' | 'log'>,
  listen: { host: string; port: number },
): Promise<{ url: string; close(): Promise<void> }> {
  const { registry } = metricsFor(ctx);
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || new URL(request.url ?? '/', 'http://x').pathname !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('não encontrado');
      return;
    }
    if (!metricsAuthorized(ctx.config, request.headers.authorization)) {
      response
        .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
        .end('não autorizado');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.log.info({ address: `${host}:${address.port}` }, 'metrics listening');
  return {
    url: `http://${host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
