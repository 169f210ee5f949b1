// The baseline: a bare Fastify route answering a small JSON object, run as its own
// child process (PORT, HOST) and loaded with the same autocannon settings as the
// service. No logger, no hooks, no schemas: the ceiling for "Fastify on this machine".
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ ok: true, service: 'bare-fastify' }));
app.get('/healthz', async () => ({ status: 'ok' }));

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

const close = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
