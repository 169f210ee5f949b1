// `listen` (packages/sdk/src/listen.ts and the consigna-sdk command) against a real
// service on a real port, with the delivery worker on, and a real local receiver that
// verifies every forwarded event with the channel's webhook secret: the exact bytes
// and headers arrive; the local server down, then back; the stream dropped, then
// resumed with nothing missed; another URL replaced only when confirmed; one channel's
// stream never carries another's events; the command's lines and a clean Ctrl-C.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  Consigna,
  forwardLine,
  listen,
  recordedAnswer,
  verifyWebhook,
  type ForwardResult,
  type Listening,
} from '../../packages/sdk/src/index.ts';

const CLI = path.resolve(import.meta.dirname, '../../packages/sdk/src/cli.ts');

interface Arrival {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** A developer's local receiver: records what arrives and answers `status`. */
async function localReceiver(port = 0) {
  const arrivals: Arrival[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    arrivals,
    port: address.port,
    url: `http://127.0.0.1:${address.port}/webhooks`,
    setStatus: (s: number) => (status = s),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let service: TestService;
const stops: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: true, env: { CONSIGNA_RETRY_DELAYS: '1,1,1,1,1,1' } });
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await service?.close();
});

async function newChannel() {
  const credentials = await service.createChannel();
  return new Consigna({ baseUrl: service.baseUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
}

/** listen in this process, stopped after the file; `fetch` may be wrapped. */
async function listening(consigna: Consigna, forwardTo: string, extra: { fetch?: typeof fetch; idleTimeoutMs?: number } = {}) {
  const controller = new AbortController();
  const forwards: ForwardResult[] = [];
  const statuses: string[] = [];
  const started: Listening = await listen({
    consigna,
    forwardTo,
    signal: controller.signal,
    onForward: (r) => forwards.push(r),
    onStatus: (s) => statuses.push(s),
    ...extra,
  });
  if (started.newSecret) rememberSecret(started.newSecret);
  stops.push(async () => {
    controller.abort();
    await started.done;
  });
  await waitFor(() => statuses.some((s) => s.startsWith('recebendo eventos')), { what: 'the stream to open' });
  return { ...started, forwards, statuses, stop: () => controller.abort() };
}

async function proposalEvents(consigna: Consigna) {
  const link = await consigna.createLink({ cpf: '12345678909' });
  rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
  expect((await consigna.simulateJourney(link.id)).status).toBe('CONCLUIDO');
  return link.id;
}

const payloadsOf = async (linkId: string) =>
  (
    await service.ctx.database.db
      .selectFrom('events')
      .select(['id', 'payload'])
      .where('link_id', '=', linkId)
      .orderBy('ocorrido_em')
      .orderBy('id')
      .execute()
  ).map((e) => e.payload);

describe('listen', () => {
  it('forwards each event with the exact bytes and headers signed, so the channel’s secret verifies it', async () => {
    const consigna = await newChannel();
    const local = await localReceiver();
    stops.push(local.close);
    const l = await listening(consigna, local.url);
    expect(l.newSecret).toMatch(/^whsec_/);
    expect((await consigna.getWebhook()).url).toBe(l.inbox.url);

    const linkId = await proposalEvents(consigna);
    await waitFor(() => local.arrivals.length >= 2, { what: 'two events at the local receiver' });
    // The line comes once listen has the local answer, after the arrival.
    await waitFor(() => l.forwards.length >= 2, { what: 'the two forwards done' });
    const expected = await payloadsOf(linkId);
    // Deliveries run concurrently: the two may arrive in either order (guide §6).
    expect(local.arrivals.map((a) => a.body.toString('utf8')).toSorted()).toEqual(expected.toSorted());
    for (const arrival of local.arrivals) {
      const event = verifyWebhook(arrival.body, arrival.headers['x-service-signature'] as string, l.newSecret!);
      expect((event as { link?: { id: string } }).link?.id).toBe(linkId);
      expect(arrival.headers['content-type']).toMatch(/^application\/json/);
      expect(arrival.headers['x-service-event-id']).toBe(event.id);
      expect(arrival.headers.host).toBe(`127.0.0.1:${local.port}`);
    }
    expect(l.forwards.map((f) => `${f.event.tipo} ${f.status}`).toSorted()).toEqual([
      'proposta.aguardando_formalizacao 200',
      'proposta.criada 200',
    ]);
  });

  it('says so when the local server is down, goes on, and forwards again once it is back', async () => {
    const consigna = await newChannel();
    const local = await localReceiver();
    const l = await listening(consigna, local.url);
    await local.close();
    await consigna.sendTestEvent();
    await waitFor(() => l.forwards.length >= 1, { what: 'the failed forward' });
    expect(l.forwards[0]).toMatchObject({ error: 'conexão recusada' });
    expect(l.forwards[0]!.status).toBeUndefined();

    const back = await localReceiver(local.port);
    stops.push(back.close);
    await consigna.sendTestEvent();
    await waitFor(() => back.arrivals.length >= 1 && l.forwards.length >= 2, { what: 'the forward once the server is back' });
    expect(l.forwards.at(-1)).toMatchObject({ status: 200 });
    expect(JSON.parse(back.arrivals[0]!.body.toString()).tipo).toBe('webhook.teste');
  });

  it('reconnects after the stream drops and forwards what arrived meanwhile, once each', async () => {
    const consigna = await newChannel();
    const local = await localReceiver();
    stops.push(local.close);
    // The stream's connection can be cut from here, as a network would.
    let cut: AbortController | undefined;
    const droppable: typeof fetch = (input, init) => {
      if (!String(input).endsWith('/eventos/fluxo')) return fetch(input, init);
      cut = new AbortController();
      const signals = [cut.signal, ...(init?.signal ? [init.signal] : [])];
      return fetch(input, { ...init, signal: AbortSignal.any(signals) });
    };
    const l = await listening(consigna, local.url, { fetch: droppable });
    await consigna.sendTestEvent();
    await waitFor(() => local.arrivals.length === 1, { what: 'the first event' });

    cut!.abort();
    await waitFor(() => l.statuses.some((s) => s.startsWith('conexão com o serviço perdida')), { what: 'the drop noticed' });
    // Events stored while nobody streams.
    const linkId = await proposalEvents(consigna);
    await waitFor(() => l.statuses.some((s) => s.startsWith('reconectado')), { timeoutMs: 15_000, what: 'the reconnection' });
    await waitFor(() => local.arrivals.length >= 3, { what: 'the events stored during the drop' });
    expect(
      local.arrivals
        .slice(1)
        .map((a) => a.body.toString())
        .toSorted(),
    ).toEqual((await payloadsOf(linkId)).toSorted());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(local.arrivals).toHaveLength(3);
  });

  it('counts a stream that goes silent as lost, reconnects, and forwards what it missed', async () => {
    const consigna = await newChannel();
    const local = await localReceiver();
    stops.push(local.close);
    // The first stream connection dies without a FIN (a laptop changed networks): from
    // `silenced` on, nothing more comes through it and it never ends.
    let silenced = false;
    let connections = 0;
    const dying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith('/eventos/fluxo') || ++connections > 1) return response;
      const reader = response.body!.getReader();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init?.signal?.addEventListener('abort', () => controller.error(init.signal!.reason), { once: true });
        },
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else if (!silenced) controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const l = await listening(consigna, local.url, { fetch: dying, idleTimeoutMs: 600 });
    await consigna.sendTestEvent();
    await waitFor(() => local.arrivals.length === 1, { what: 'the first event' });

    silenced = true;
    const linkId = await proposalEvents(consigna);
    await waitFor(() => l.statuses.some((s) => s.includes('nada recebido do serviço em 1 s')), { what: 'the silence noticed' });
    await waitFor(() => local.arrivals.length >= 3, { timeoutMs: 10_000, what: 'the events sent into the silence' });
    expect(connections).toBe(2);
    expect(
      local.arrivals
        .slice(1)
        .map((a) => a.body.toString())
        .toSorted(),
    ).toEqual((await payloadsOf(linkId)).toSorted());
    // With a 600 ms watchdog and a ping every 15 s it would reconnect every few seconds
    // for the rest of the file, and a connection cut while opening keeps the service's
    // close waiting: stop it now.
    l.stop();
    await l.done;
  });

  it('shows what Consigna recorded for each attempt beside the local answer: the inbox’s answer decides the retries', async () => {
    const consigna = await newChannel();
    const local = await localReceiver();
    stops.push(local.close);
    local.setStatus(204);
    const l = await listening(consigna, local.url);
    // The inbox answers 500 while the local server answers 204: the delivery fails at
    // every attempt (retries 1 s apart here) and ends FALHOU.
    await consigna.setInboxStatus(l.inbox, 500);
    const link = await consigna.createLink({ cpf: '12345678909' });
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    await consigna.simulateJourney(link.id);
    const created = () => l.forwards.filter((f) => f.event.tipo === 'proposta.criada');
    await waitFor(() => created().length === 7, { timeoutMs: 25_000, what: 'the seven attempts of proposta.criada' });
    const [delivery] = (await consigna.listDeliveries({ tipo: 'proposta.criada' })).entregas;
    await waitFor(async () => (await consigna.getDelivery(delivery!.id)).status === 'FALHOU', {
      intervalMs: 200,
      what: 'the delivery FALHOU',
    });
    const recorded = await consigna.getDelivery(delivery!.id);
    // What each line says Consigna recorded is what Consigna's own record of the attempt holds.
    expect(recorded.historico.map((a) => a.httpStatus)).toEqual(Array(7).fill(500));
    expect(created().map((f) => [f.event.tentativa, f.status, f.event.respondeuStatus])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => [String(n), 204, 500]),
    );
    const lines = created().map((f) => forwardLine(f));
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d {2}proposta\.criada {2}tentativa 1 {2}local → 204 {2}\d+ ms {2}\| {2}Consigna registrou 500: falha, haverá nova tentativa {2}\(vale a resposta do receptor de testes, configurado para 500, não a do seu servidor\)$/,
    );
    expect(lines[6]).toContain('tentativa 7  local → 204');
    expect(lines[6]).toContain('Consigna registrou 500: falha na última tentativa, entrega FALHOU');

    // The other way round: the inbox answers 200, the local server 401. Consigna counts
    // the event delivered, and never tries again, whatever the local server said.
    await consigna.setInboxStatus(l.inbox, 200);
    local.setStatus(401);
    await consigna.simulateProposal(link.id, 'FORMALIZADA');
    await waitFor(() => l.forwards.some((f) => f.event.tipo === 'proposta.formalizada'), { what: 'proposta.formalizada' });
    const formalized = l.forwards.find((f) => f.event.tipo === 'proposta.formalizada')!;
    expect(forwardLine(formalized)).toContain(
      'local → 401  ' +
        `${formalized.latencyMs} ms  |  Consigna registrou 200: entregue  (vale a resposta do receptor de testes, configurado para 200, não a do seu servidor)`,
    );
    // The inbox stores the event before the worker records the attempt.
    const formalizedDelivery = async () => (await consigna.listDeliveries({ tipo: 'proposta.formalizada' })).entregas[0];
    await waitFor(async () => (await formalizedDelivery())?.status !== 'PENDENTE', {
      intervalMs: 200,
      what: 'the attempt recorded',
    });
    expect(await formalizedDelivery()).toMatchObject({ status: 'ENTREGUE', tentativas: 1, ultimoHttpStatus: 200 });
  }, 60_000);

  it('words what Consigna recorded: a test event is never retried, and a hand-made post is no delivery', () => {
    expect(recordedAnswer({ tipo: 'webhook.teste', tentativa: '1', respondeuStatus: 503 })).toBe(
      'Consigna registrou 503: falha (evento de teste: sem nova tentativa)',
    );
    expect(recordedAnswer({ tipo: 'proposta.criada', tentativa: '6', respondeuStatus: 404 })).toBe(
      'Consigna registrou 404: falha, haverá nova tentativa',
    );
    expect(recordedAnswer({ tipo: 'proposta.criada', tentativa: '2', respondeuStatus: 202 })).toBe(
      'Consigna registrou 202: entregue',
    );
    expect(recordedAnswer({ tipo: 'proposta.criada', respondeuStatus: 200 })).toBeUndefined();
  });

  it('replaces another registered URL only when confirmed', async () => {
    const consigna = await newChannel();
    const created = await consigna.putWebhook({ url: 'https://hooks.canal.com.br/consigna' });
    rememberSecret(created.segredo);
    const asked: string[] = [];
    const refused = await listen({
      consigna,
      forwardTo: 'http://127.0.0.1:9/x',
      confirmReplace: async (url) => {
        asked.push(url);
        return false;
      },
    }).catch((e: unknown) => e as Error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain('nada foi alterado');
    expect(asked).toEqual(['https://hooks.canal.com.br/consigna']);
    expect((await consigna.getWebhook()).url).toBe('https://hooks.canal.com.br/consigna');
    // Without a confirmation callback it never replaces either.
    await expect(listen({ consigna, forwardTo: 'http://127.0.0.1:9/x' })).rejects.toThrow(/nada foi alterado/);

    const local = await localReceiver();
    stops.push(local.close);
    const controller = new AbortController();
    const accepted = await listen({
      consigna,
      forwardTo: local.url,
      signal: controller.signal,
      confirmReplace: async () => true,
    });
    stops.push(async () => {
      controller.abort();
      await accepted.done;
    });
    expect(accepted.newSecret).toBeUndefined(); // an update keeps the secret already issued
    expect((await consigna.getWebhook()).url).toBe(accepted.inbox.url);
  });

  it('never carries another channel’s events', async () => {
    const a = await newChannel();
    const b = await newChannel();
    const localA = await localReceiver();
    const localB = await localReceiver();
    stops.push(localA.close, localB.close);
    await listening(a, localA.url);
    await listening(b, localB.url);
    await proposalEvents(a);
    await waitFor(() => localA.arrivals.length >= 2, { what: 'A’s events' });
    await b.sendTestEvent();
    await waitFor(() => localB.arrivals.length >= 1, { what: 'B’s test event' });
    expect(localB.arrivals.map((x) => JSON.parse(x.body.toString()).tipo)).toEqual(['webhook.teste']);
    expect(localA.arrivals.every((x) => JSON.parse(x.body.toString()).tipo !== 'webhook.teste')).toBe(true);
  });
});

describe('consigna-sdk listen (the command)', () => {
  it('takes credentials from the environment, prints one line per event, and stops cleanly on Ctrl-C', async () => {
    const credentials = await service.createChannel();
    const local = await localReceiver();
    stops.push(local.close);
    local.setStatus(204);
    const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', local.url], {
      env: {
        PATH: process.env.PATH,
        CONSIGNA_URL: service.baseUrl,
        CONSIGNA_CLIENT_ID: credentials.clientId,
        CONSIGNA_CLIENT_SECRET: credentials.clientSecret,
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    stops.push(() => void child.kill('SIGKILL'));
    await waitFor(() => output.includes('recebendo eventos'), { timeoutMs: 20_000, what: 'the command to listen' });
    const secret = /segredo do webhook[^:]*: (whsec_\S+)/.exec(output)?.[1];
    rememberSecret(secret);
    expect(secret).toBeDefined();

    const consigna = new Consigna({ baseUrl: service.baseUrl, ...credentials });
    await consigna.sendTestEvent();
    await waitFor(
      () => /webhook\.teste {2}tentativa 1 {2}local → 204 {2}\d+ ms {2}\| {2}Consigna registrou 200: entregue\n/.test(output),
      { what: 'the event line' },
    );
    expect(
      verifyWebhook(local.arrivals[0]!.body, local.arrivals[0]!.headers['x-service-signature'] as string, secret!).tipo,
    ).toBe('webhook.teste');
    expect(output).not.toContain('⚠');

    // What did not verify is still forwarded, and its line says so: a forged signature,
    // and no signature at all (anyone holding the inbox url can post to it).
    const inboxUrl = (await consigna.ensureInbox()).url;
    const post = (headers: Record<string, string>) =>
      fetch(inboxUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"tipo":"forjado"}',
      });
    const forged = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
    expect((await post({ 'x-service-signature': forged, 'x-service-event-type': 'proposta.aprovada' })).status).toBe(200);
    await waitFor(
      () =>
        /proposta\.aprovada .*local → 204 .*\| {2}receptor respondeu 200 \(postado direto no receptor, não é uma entrega\) {2}⚠ assinatura INVÁLIDA: não confere com o segredo do webhook/.test(
          output,
        ),
      {
        what: 'the warning on the forged event',
      },
    );
    expect((await post({ 'x-service-event-type': 'proposta.cancelada' })).status).toBe(200);
    await waitFor(
      () =>
        /proposta\.cancelada .*local → 204 .*\| {2}receptor respondeu 200 .*⚠ assinatura NÃO VERIFICADA: cabeçalho X-Service-Signature ausente/.test(
          output,
        ),
      { what: 'the warning on the unsigned event' },
    );
    expect(local.arrivals).toHaveLength(3);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('encerrado');
    expect(output).not.toContain(credentials.clientSecret);
  });

  it('refuses a missing --forward-to or missing credentials with exit code 2', async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += String(chunk)));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    expect(await run(['listen'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--forward-to') });
    expect(await run(['listen', '--forward-to', 'ftp://x'])).toMatchObject({ code: 2 });
    expect(await run(['listen', '--forward-to', 'http://localhost:4000/webhooks'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('CONSIGNA_CLIENT_ID'),
    });
    expect(await run(['outro'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Uso:') });
  });

  it('still reads the old CLIENT_ID and CLIENT_SECRET, warning to use the CONSIGNA_ names', async () => {
    const credentials = await service.createChannel();
    const local = await localReceiver();
    stops.push(local.close);
    const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', local.url], {
      env: {
        PATH: process.env.PATH,
        CONSIGNA_URL: service.baseUrl,
        CLIENT_ID: credentials.clientId,
        CLIENT_SECRET: credentials.clientSecret,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    stops.push(() => void child.kill('SIGKILL'));
    await waitFor(() => stdout.includes('recebendo eventos'), { timeoutMs: 20_000, what: 'the command to listen' });
    rememberSecret(/segredo do webhook[^:]*: (whsec_\S+)/.exec(stdout)?.[1]);
    expect(stderr).toContain('Aviso: CLIENT_ID está obsoleta e deixará de ser lida; use CONSIGNA_CLIENT_ID.');
    expect(stderr).toContain('Aviso: CLIENT_SECRET está obsoleta e deixará de ser lida; use CONSIGNA_CLIENT_SECRET.');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
