// The delivery history (docs/rules.md §5): every attempt kept, with the start of the
// endpoint's answer (cut at 4 KiB and marked, never logged), on GET
// /v1/webhooks/entregas/{id}; and the list's cursor and filters. Real worker, real
// receiver, both databases; another channel's deliveries are 404 everywhere.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { receiverPool } from '../helpers/receiver.ts';
import { waitFor } from '../helpers/wait.ts';
import { FAST_ENV, channelWith, listDeliveries, proposalLink, type Delivery } from './support.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { recordResults } from '../../src/webhooks/delivery/sql/record-results.ts';
import type { AttemptResource } from '../../src/webhooks/deliveries.service.ts';

let service: TestService;
const receivers = receiverPool();

beforeAll(async () => {
  service = await startTestService({ worker: true, env: FAST_ENV });
});
afterAll(async () => {
  await service?.close();
  await receivers.closeAll();
});

type Detailed = Delivery & { historico: AttemptResource[] };

/** The link's one delivery (listed once every older transaction has ended: at once, or a few ms later). */
async function deliveryOf(auth: Record<string, string>, linkId: string): Promise<Delivery> {
  let found: Delivery | undefined;
  await waitFor(async () => (found = (await listDeliveries(service, auth, `?linkId=${linkId}`))[0]) !== undefined, {
    what: 'the link’s delivery listed',
  });
  return found!;
}

const getDelivery = (auth: Record<string, string>, id: string) =>
  service.inject({ method: 'GET', url: `/v1/webhooks/entregas/${id}`, headers: auth });

describe('GET /v1/webhooks/entregas/{id}', () => {
  it('keeps every attempt with status, latency, error and the first 4 KiB of the answer, cut and marked; never logged', async () => {
    // 4,096 bytes kept: a NUL (PostgreSQL text cannot hold it), then a two-byte "é" cut in half at the limit.
    const marker = 'corpo-secreto-do-endpoint';
    const failing = Buffer.from(`\0${marker}${'a'.repeat(4094 - marker.length)}é${'z'.repeat(2000)}`, 'utf8');
    const receiver = await receivers.start({ status: 503 });
    receiver.setBody(failing);
    const { auth, json } = await channelWith(service, receiver.url, ['proposta.criada']);
    const other = await channelWith(service, receiver.url);

    const linkId = await proposalLink(service, auth);
    const pending = await deliveryOf(auth, linkId);
    expect(pending.tipo).toBe('proposta.criada');
    await waitFor(async () => (await getDelivery(auth, pending.id)).json<Detailed>().historico.length >= 2, {
      timeoutMs: 20_000,
      what: 'two failed attempts',
    });
    receiver.setStatus(200);
    receiver.setBody('{"recebido":true}');
    await waitFor(async () => (await getDelivery(auth, pending.id)).json<Detailed>().status === 'ENTREGUE', {
      timeoutMs: 20_000,
      what: 'the delivery to succeed',
    });

    const response = await getDelivery(auth, pending.id.toUpperCase());
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<Detailed>();
    const { historico, ...delivery } = detail;
    // The delivery itself is the list's record of it.
    expect((await listDeliveries(service, auth, `?eventoId=${pending.eventoId}`))[0]).toEqual(delivery);
    expect(historico.length).toBe(detail.tentativas);
    expect(detail.tentativasTotais).toBe(detail.tentativas);
    expect(historico.map((a) => [a.numero, a.ordem, a.reenvio])).toEqual(historico.map((_, i) => [i + 1, i + 1, 0]));
    const failed = historico.slice(0, -1);
    const expectedBody = `\uFFFD${marker}${'a'.repeat(4094 - marker.length)}\uFFFD`;
    for (const attempt of failed) {
      expect(attempt).toMatchObject({ httpStatus: 503, erro: 'HTTP 503', corpoRespostaTruncado: true });
      expect(attempt.corpoResposta).toBe(expectedBody);
      expect(Buffer.byteLength(attempt.corpoResposta!.slice(1, -1))).toBe(4094);
    }
    expect(historico.at(-1)).toEqual({
      numero: detail.tentativas,
      ordem: detail.tentativas,
      reenvio: 0,
      tentadaEm: detail.ultimaTentativaEm,
      httpStatus: 200,
      latenciaMs: detail.ultimaLatenciaMs,
      corpoResposta: '{"recebido":true}',
      corpoRespostaTruncado: false,
    });
    // Oldest first, each after the one before.
    const times = historico.map((a) => Date.parse(a.tentadaEm));
    expect(times).toEqual(times.toSorted((a, b) => a - b));
    expect(service.logs.join('\n')).not.toContain(marker);

    // Another channel: 404, as for an unknown id or one that is not a uuid.
    for (const id of [pending.id, '00000000-0000-4000-8000-000000000000', 'nao-e-uuid']) {
      const answer = await getDelivery(other.auth, id);
      expect(answer.statusCode, id).toBe(404);
      expect(answer.json().code).toBe('nao_encontrado');
    }
    expect((await listDeliveries(service, other.auth, `?eventoId=${pending.eventoId}`)).length).toBe(0);
    // The resend adds its attempt to the same history.
    const resent = await service.inject({ method: 'POST', url: `/v1/webhooks/entregas/${pending.id}/reenviar`, headers: json });
    expect(resent.statusCode, resent.body).toBe(200);
    const after = (await getDelivery(auth, pending.id)).json<Detailed>().historico;
    expect(after).toHaveLength(historico.length + 1);
    expect(after.at(-1)).toMatchObject({
      numero: 1,
      ordem: historico.length + 1,
      reenvio: 1,
      httpStatus: 200,
      corpoResposta: '{"recebido":true}',
    });
  });

  it('an attempt without an answer has no status and no body; a result whose lease was lost adds nothing', async () => {
    const receiver = await receivers.start();
    const { auth, canalId } = await channelWith(service, receiver.url, ['proposta.criada']);
    await receiver.close(); // connection refused from now on
    const linkId = await proposalLink(service, auth);
    const delivery = await deliveryOf(auth, linkId);
    await waitFor(async () => (await getDelivery(auth, delivery.id)).json<Detailed>().historico.length >= 1, {
      timeoutMs: 20_000,
      what: 'a refused attempt',
    });
    const [first] = (await getDelivery(auth, delivery.id)).json<Detailed>().historico;
    expect(first).toEqual({
      numero: 1,
      ordem: 1,
      reenvio: 0,
      tentadaEm: expect.any(String),
      latenciaMs: expect.any(Number),
      erro: 'conexão recusada',
      corpoRespostaTruncado: false,
    });

    // A late result from a lease that is no longer the row's (another worker took over).
    const before = await attemptsOf(delivery.id);
    const written = await recordResults(service.ctx.database.db, [
      {
        id: delivery.id,
        leaseId: '00000000-0000-7000-8000-000000000000',
        channelId: canalId,
        status: 'ENTREGUE',
        nextAttemptAt: null,
        httpStatus: 200,
        error: null,
        latencyMs: 1,
        at: new Date(),
        responseBody: 'tarde demais',
        responseTruncated: false,
      },
    ]);
    expect(written).toBe(0);
    expect(await attemptsOf(delivery.id)).toBe(before);
  });
});

const attemptsOf = async (deliveryId: string) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from delivery_attempts where delivery_id = ${deliveryId}`.execute(
      service.ctx.database.db,
    )
  ).rows[0]!.n;

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
/** Two real links of the channel under test (events.link_id references links). */
const LINKS: string[] = [];

/** `count` events (one a second from T0, types alternating, links alternating), each with a delivery, in separate transactions. */
async function events(channelId: string, count: number, from = 0): Promise<void> {
  for (let n = from; n < from + count; n++) {
    await sql`
      with e as (
        insert into events (id, channel_id, link_id, tipo, payload, ocorrido_em)
        values (gen_random_uuid(), ${channelId}, ${LINKS[n % 2]}, ${n % 2 ? 'proposta.aprovada' : 'proposta.recusada'}, ${`{"n":${n}}`},
                ${new Date(T0 + n * 1000)})
        returning id, tipo, ocorrido_em
      )
      insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, last_http_status, last_error, last_attempt_at, criado_em)
      select gen_random_uuid(), e.id, ${channelId}, e.tipo, ${n % 3 ? 'ENTREGUE' : 'FALHOU'}, 1, 200, null, e.ocorrido_em, e.ocorrido_em from e
    `.execute(service.ctx.database.db);
  }
}

/** Deliveries as `n` (from the event body's number), walking every page. */
async function walk(auth: Record<string, string>, query: string, between?: () => Promise<void>): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const response = await service.inject({
      method: 'GET',
      url: `/v1/webhooks/entregas?limite=7${query}${cursor ? `&cursor=${cursor}` : ''}`,
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<{ entregas: Delivery[]; proximoCursor?: string }>();
    expect(page.entregas.length).toBeLessThanOrEqual(7);
    const ns = await numbers(page.entregas.map((d) => d.eventoId));
    seen.push(...ns);
    cursor = page.proximoCursor;
    if (pages++ === 0) await between?.();
  } while (cursor);
  return seen;
}

async function numbers(eventIds: string[]): Promise<number[]> {
  if (eventIds.length === 0) return [];
  const { rows } = await sql<{
    id: string;
    payload: string;
  }>`select id, payload from events where id = any (${eventIds}::uuid[])`.execute(service.ctx.database.db);
  const byId = new Map(rows.map((r) => [r.id, (JSON.parse(r.payload) as { n: number }).n]));
  return eventIds.map((id) => byId.get(id)!);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('GET /v1/webhooks/entregas: cursor and filters', () => {
  let channel: Awaited<ReturnType<typeof channelWith>>;
  beforeAll(async () => {
    const receiver = await receivers.start();
    channel = await channelWith(service, receiver.url);
    for (const cpf of VALID_CPFS.slice(0, 2)) {
      const created = await createLinkVia(service, channel.auth, { cpf });
      expect(created.statusCode, created.body).toBe(201);
      LINKS.push(created.json<{ id: string }>().id);
    }
    await events(channel.canalId, 40);
    // The list shows what is older than every transaction still running on the server (its
    // databases all count): another test file's open transaction holds the head back a moment.
    await waitFor(async () => (await walk(channel.auth, '')).length === 40, { what: 'the 40 deliveries listed' });
  });

  it('pages newest first with no delivery skipped or repeated, while new ones arrive at the head', async () => {
    const seen = await walk(channel.auth, '', () => events(channel.canalId, 5, 40));
    expect(seen).toEqual(range(0, 40).reverse());
    // The ones that arrived meanwhile are at the head of a fresh first page.
    await waitFor(async () => (await walk(channel.auth, '')).length === 45, { what: 'the 5 new deliveries listed' });
    expect((await walk(channel.auth, '')).slice(0, 5)).toEqual([44, 43, 42, 41, 40]);
  });

  it('filters by tipo, linkId, eventoId, status, desde and ate together', async () => {
    const all = range(0, 45).reverse();
    expect(await walk(channel.auth, '&tipo=proposta.aprovada')).toEqual(all.filter((n) => n % 2 === 1));
    expect(await walk(channel.auth, `&linkId=${LINKS[0]!.toUpperCase()}`)).toEqual(all.filter((n) => n % 2 === 0));
    expect(await walk(channel.auth, '&status=FALHOU')).toEqual(all.filter((n) => n % 3 === 0));
    const desde = new Date(T0 + 10_000).toISOString();
    const ate = new Date(T0 + 20_000).toISOString();
    expect(await walk(channel.auth, `&desde=${desde}&ate=${ate}`)).toEqual(range(10, 20).reverse());
    expect(await walk(channel.auth, `&desde=${desde}&ate=${ate}&tipo=proposta.recusada&status=ENTREGUE`)).toEqual(
      range(10, 20)
        .filter((n) => n % 2 === 0 && n % 3 !== 0)
        .reverse(),
    );
    const [one] = await listDeliveries(service, channel.auth, '?limite=1');
    expect((await listDeliveries(service, channel.auth, `?eventoId=${one!.eventoId}`)).map((d) => d.id)).toEqual([one!.id]);
  });

  it('answers bad parameters with 400 and the parameter’s code, in pt-BR', async () => {
    const cases: Array<[string, string]> = [
      ['cursor=naoeumcursor', 'cursor_invalido'],
      [`cursor=${Buffer.from('1:x').toString('base64url')}`, 'cursor_invalido'],
      ['tipo=proposta.inventada', 'tipo_invalido'],
      ['tipo=webhook.teste', 'tipo_invalido'],
      ['eventoId=123', 'evento_id_invalido'],
      ['linkId=abc', 'link_id_invalido'],
      ['desde=ontem', 'desde_invalido'],
      ['ate=2026-13-01T00:00:00Z', 'ate_invalido'],
      ['desde=2026-11-21T00:00:00Z&ate=2026-11-20T00:00:00Z', 'periodo_invalido'],
      ['desde=2026-11-21T00:00:00Z&ate=2026-11-21T00:00:00Z', 'periodo_invalido'],
      ['status=ENVIADA', 'status_invalido'],
      ['limite=0', 'limite_invalido'],
      ['limite=101', 'limite_invalido'],
    ];
    for (const [query, code] of cases) {
      const response = await service.inject({ method: 'GET', url: `/v1/webhooks/entregas?${query}`, headers: channel.auth });
      expect([query, response.statusCode, response.json().code]).toEqual([query, 400, code]);
      expect(response.json().message).toMatch(/[a-zç]/);
    }
  });

  it('shows another channel none of these deliveries, whatever the filter or cursor', async () => {
    const other = await channelWith(service, (await receivers.start()).url);
    const first = await service.inject({ method: 'GET', url: '/v1/webhooks/entregas?limite=3', headers: channel.auth });
    const cursor = first.json<{ proximoCursor: string }>().proximoCursor;
    expect(await listDeliveries(service, other.auth, `?cursor=${cursor}`)).toEqual([]);
    expect(await listDeliveries(service, other.auth, `?linkId=${LINKS[0]}`)).toEqual([]);
    for (const d of first.json<{ entregas: Delivery[] }>().entregas) {
      expect((await getDelivery(other.auth, d.id)).statusCode).toBe(404);
    }
  });
});
