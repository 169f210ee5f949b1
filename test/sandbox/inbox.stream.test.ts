// GET /v1/sandbox/receptor/{token}/eventos/fluxo on a real socket: the `pronto` event,
// each received event pushed with its exact bytes (not only the text shown), replay
// after Last-Event-ID or `desde`, the documented errors, the cap on open streams, and a
// server that closes without waiting for its open streams.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { channelWithInbox, postToInbox } from './support.ts';
import { MAX_STREAMS_PER_INBOX } from '../../src/sandbox/inbox-stream.routes.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ listen: true });
});
afterAll(() => service?.close());

interface Message {
  event: string;
  id?: string;
  data: string;
}

/** Opens a stream and collects its messages; `close` ends it from the client side. */
function openStream(path: string, headers: Record<string, string> = {}) {
  const messages: Message[] = [];
  const status = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.get(`${service.baseUrl}${path}`, { headers }, (response) => {
      let buffer = '';
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Message = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'event') message.event = value;
            if (field === 'id') message.id = value;
            if (field === 'data') message.data = value;
          }
          if (message.data || message.id) messages.push(message);
        }
      });
      resolve({ status: response.statusCode!, headers: response.headers, body: '' });
      response.on('end', () => void body);
    });
    request.on('error', reject);
    closers.push(() => request.destroy());
  });
  return { messages, response: status };
}
const closers: Array<() => void> = [];

const events = (messages: Message[]) => messages.filter((m) => m.event === 'evento').map((m) => JSON.parse(m.data));

describe('inbox event stream', () => {
  it('starts with pronto at the newest id, then pushes each event with its exact bytes', async () => {
    const { token, path } = await channelWithInbox(service);
    await postToInbox(service, token, '{"antes":true}');
    const stream = openStream(`${path}/eventos/fluxo`);
    const { status, headers } = await stream.response;
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-request-id']).toBeDefined();
    await waitFor(() => stream.messages.length >= 1, { what: 'pronto' });
    const ready = stream.messages[0]!;
    expect(ready.event).toBe('pronto');
    expect(JSON.parse(ready.data).ultimoId).toBe(Number(ready.id));
    expect(Number(ready.id)).toBeGreaterThan(0);

    // Not UTF-8, with a NUL: the text shown differs, the bytes pushed do not.
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x00, 0xc3, 0xa9, 0x22, 0x7d]);
    const sent = await service.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/octet-stream', 'x-service-event-type': 'teste.bytes' },
      payload: bytes,
    });
    expect(sent.statusCode).toBe(200);
    await waitFor(() => events(stream.messages).length >= 1, { what: 'the pushed event' });
    const [pushed] = events(stream.messages);
    expect(pushed.tipo).toBe('teste.bytes');
    expect(Buffer.from(pushed.corpoBase64, 'base64').equals(bytes)).toBe(true);
    expect(pushed.corpo).not.toContain('\0');
    expect(pushed.headers['x-service-event-type']).toBe('teste.bytes');
    expect(stream.messages.at(-1)!.id).toBe(String(pushed.id));
  });

  it('answers HEAD with the headers and ends at once, holding no stream open', async () => {
    const { path } = await channelWithInbox(service);
    const started = Date.now();
    const response = await fetch(`${service.baseUrl}${path}/eventos/fluxo`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(5000),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe('');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('replays what the inbox keeps after Last-Event-ID (or desde), oldest first', async () => {
    const { token, path } = await channelWithInbox(service);
    for (const n of [1, 2, 3]) await postToInbox(service, token, JSON.stringify({ n }));
    const list = (await service.inject({ method: 'GET', url: `${path}/eventos` })).json().eventos as Array<{ id: number }>;
    const firstId = list.at(-1)!.id;

    const byHeader = openStream(`${path}/eventos/fluxo`, { 'last-event-id': String(firstId) });
    await waitFor(() => events(byHeader.messages).length === 2, { what: 'the replay after the first event' });
    expect(events(byHeader.messages).map((e) => e.corpo.n)).toEqual([2, 3]);

    const byQuery = openStream(`${path}/eventos/fluxo?desde=0`);
    await waitFor(() => events(byQuery.messages).length === 3, { what: 'the replay of everything kept' });
    expect(events(byQuery.messages).map((e) => e.corpo.n)).toEqual([1, 2, 3]);
  });

  it('never pushes another inbox’s events', async () => {
    const a = await channelWithInbox(service);
    const b = await channelWithInbox(service);
    const stream = openStream(`${a.path}/eventos/fluxo`);
    await waitFor(() => stream.messages.length >= 1, { what: 'pronto' });
    await postToInbox(service, b.token, '{"de":"b"}');
    await postToInbox(service, a.token, '{"de":"a"}');
    await waitFor(() => events(stream.messages).length >= 1, { what: 'a’s event' });
    expect(events(stream.messages).map((e) => e.corpo.de)).toEqual(['a']);
  });

  it('answers the documented errors: unknown token 404, bad Last-Event-ID or desde 400, too many streams 429', async () => {
    const unknown = await service.inject({ method: 'GET', url: `/v1/sandbox/receptor/sbx_${'x'.repeat(32)}/eventos/fluxo` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('nao_encontrado');

    const { path } = await channelWithInbox(service);
    const badHeader = await service.inject({ method: 'GET', url: `${path}/eventos/fluxo`, headers: { 'last-event-id': 'abc' } });
    expect(badHeader.statusCode).toBe(400);
    expect(badHeader.json()).toMatchObject({ code: 'requisicao_invalida', message: expect.stringContaining('Last-Event-ID') });
    const badQuery = await service.inject({ method: 'GET', url: `${path}/eventos/fluxo?desde=-1` });
    expect(badQuery.statusCode).toBe(400);
    // Positions no record can have: past the integer ids, or past the newest id ever issued.
    for (const [name, value] of [
      ['desde', '2147483648'],
      ['desde', '99999999999999999999'],
      ['last-event-id', '2147483648'],
      ['last-event-id', '99999999999'],
    ]) {
      const r =
        name === 'desde'
          ? await service.inject({ method: 'GET', url: `${path}/eventos/fluxo?desde=${value}` })
          : await service.inject({ method: 'GET', url: `${path}/eventos/fluxo`, headers: { 'last-event-id': value } });
      expect(r.statusCode, `${name}=${value}`).toBe(400);
      expect(r.json().code).toBe('requisicao_invalida');
    }
    const newest = await service.ctx.database.db
      .selectFrom('inbox_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const ahead = Number(newest?.id ?? 0) + 1000;
    for (const r of [
      await service.inject({ method: 'GET', url: `${path}/eventos/fluxo?desde=${ahead}` }),
      await service.inject({ method: 'GET', url: `${path}/eventos/fluxo`, headers: { 'last-event-id': String(ahead) } }),
    ]) {
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(/último registro emitido/);
    }

    const streams = Array.from({ length: MAX_STREAMS_PER_INBOX }, () => openStream(`${path}/eventos/fluxo`));
    for (const s of streams) expect((await s.response).status).toBe(200);
    await waitFor(() => streams.every((s) => s.messages.length >= 1), { what: 'every stream open' });
    const over = await service.inject({ method: 'GET', url: `${path}/eventos/fluxo` });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });

  it('takes the cap atomically: of many streams opened at once, exactly the cap is accepted', async () => {
    const { path } = await channelWithInbox(service);
    const streams = Array.from({ length: 40 }, () => openStream(`${path}/eventos/fluxo`));
    const statuses = await Promise.all(streams.map(async (s) => (await s.response).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_STREAMS_PER_INBOX);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - MAX_STREAMS_PER_INBOX);
  });

  it('does not hold the other streams of the inbox back for a client that does not read', async () => {
    const { token, path } = await channelWithInbox(service);
    // A raw socket that reads the answer's head, then nothing.
    const { hostname, port } = new URL(service.baseUrl);
    const socket = net.connect(Number(port), hostname);
    socket.write(`GET ${path}/eventos/fluxo HTTP/1.1\r\nHost: x\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    const reader = openStream(`${path}/eventos/fluxo`);
    await waitFor(() => reader.messages.length >= 1, { what: 'pronto' });
    const body = JSON.stringify({ pad: 'x'.repeat(60_000) });
    for (let n = 0; n < 45; n++) expect((await postToInbox(service, token, body)).statusCode).toBe(200);
    // The reading stream gets every event, whatever the other one does not take.
    await waitFor(() => events(reader.messages).length === 45, { timeoutMs: 20_000, what: 'every event on the reading stream' });
    socket.destroy();
  });

  it('a service closing with open streams ends them instead of waiting', async () => {
    const other = await startTestService({ listen: true, sameDatabaseAs: service });
    const { path } = await channelWithInbox(other);
    const request = http.get(`${other.baseUrl}${path}/eventos/fluxo`);
    const ended = new Promise<void>((resolve, reject) => {
      request.on('error', reject);
      request.on('response', (response) => response.on('end', resolve).on('error', resolve).resume());
    });
    await new Promise((resolve) => request.on('response', resolve));
    const started = Date.now();
    await other.close();
    await ended;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

afterAll(() => {
  for (const close of closers) close();
});
