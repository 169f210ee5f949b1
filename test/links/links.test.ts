import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, linkToken } from '../helpers/links.ts';
import { usingPostgres } from '../helpers/db.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { sweepOnce } from '../../src/sweeper/sweeper.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('links', () => {
  let service: TestService;
  let channel: IssuedCredentials;
  let auth: Record<string, string>;
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');

  beforeAll(async () => {
    service = await startTestService({ clock });
    channel = await service.createChannel({ name: 'Canal A' });
    auth = await service.bearer(channel);
  });
  afterAll(() => service.close());

  const create = (body: Record<string, unknown>, key?: string, headers = auth) => createLinkVia(service, headers, body, key);
  const get = (id: string, headers = auth) => service.inject({ method: 'GET', url: `/v1/links/${id}`, headers });
  /** Another api process on the same database (PostgreSQL), or the same embedded database. */
  const secondApiInstance = () =>
    usingPostgres()
      ? startTestService({
          clock,
          database: service.database,
          env: { CONSIGNA_MASTER_KEY: service.config.masterKey!.toString('hex') },
        })
      : startTestService({ clock, sameDatabaseAs: service });
  const countLinks = async () =>
    Number(
      (
        await service.ctx.database.db
          .selectFrom('links')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('POST /v1/links', () => {
    it('creates a link: 201, the url, no-store, Location', async () => {
      const response = await create({ cpf: '12345678909', celular: '11987654321', referenciaExterna: '  promotor-42 ' });
      expect(response.statusCode).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const link = response.json();
      expect(response.headers.location).toBe(`/v1/links/${link.id}`);
      expect(link).toEqual({
        id: expect.stringMatching(UUID),
        url: expect.stringMatching(new RegExp(`^${service.baseUrl}/c/[A-Za-z0-9]{43}$`)),
        status: 'CRIADO',
        ambiente: 'SANDBOX',
        cpfMascarado: '***.456.789-**',
        referenciaExterna: 'promotor-42',
        expiraEm: '2026-11-29T12:00:00.000Z',
        criadoEm: '2026-11-22T12:00:00.000Z',
      });
    });

    it('leaves out referenciaExterna when absent or blank', async () => {
      expect((await create({ cpf: '52998224725' })).json()).not.toHaveProperty('referenciaExterna');
      expect((await create({ cpf: '52998224725', referenciaExterna: '   ' })).json()).not.toHaveProperty('referenciaExterna');
    });

    it('gives every link its own url token of at least 128 bits', async () => {
      const urls = new Set<string>();
      for (let i = 0; i < 5; i++) urls.add((await create({ cpf: '11144477735' })).json().url);
      expect(urls.size).toBe(5);
      for (const url of urls) expect(linkToken(url).length * Math.log2(62)).toBeGreaterThanOrEqual(128);
    });

    it.each([
      ['missing cpf', {}, 'cpf_invalido'],
      ['cpf with wrong check digits', { cpf: '12345678900' }, 'cpf_invalido'],
      ['cpf with punctuation', { cpf: '123.456.789-09' }, 'cpf_invalido'],
      ['cpf as a number', { cpf: 12345678909 }, 'cpf_invalido'],
      ['cpf null', { cpf: null }, 'cpf_invalido'],
      ['repeated digits', { cpf: '11111111111' }, 'cpf_invalido'],
      ['celular with a bad DDD', { cpf: '12345678909', celular: '20987654321' }, 'celular_invalido'],
      ['celular without the 9', { cpf: '12345678909', celular: '1187654321' }, 'celular_invalido'],
      ['celular as a number', { cpf: '12345678909', celular: 11987654321 }, 'celular_invalido'],
      ['unknown field', { cpf: '12345678909', nome: 'Maria' }, 'requisicao_invalida'],
      ['referenciaExterna too long', { cpf: '12345678909', referenciaExterna: 'x'.repeat(101) }, 'requisicao_invalida'],
      [
        'referenciaExterna with a control character',
        { cpf: '12345678909', referenciaExterna: 'a\u0007b' },
        'requisicao_invalida',
      ],
      ['referenciaExterna as a number', { cpf: '12345678909', referenciaExterna: 42 }, 'requisicao_invalida'],
    ])('400 for %s', async (_name, body, code) => {
      const before = await countLinks();
      const response = await create(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code, message: expect.any(String), requestId: response.headers['x-request-id'] });
      expect(await countLinks()).toBe(before);
    });

    it.each([
      ['a JSON array', '["12345678909"]', 'application/json'],
      ['malformed JSON', '{"cpf": "123', 'application/json'],
      ['an empty JSON body', '', 'application/json'],
      ['a form body', 'cpf=12345678909', 'application/x-www-form-urlencoded'],
      ['plain text', '12345678909', 'text/plain'],
    ])('400 requisicao_invalida for %s', async (_name, payload, contentType) => {
      const response = await service.inject({
        method: 'POST',
        url: '/v1/links',
        headers: { ...auth, 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('requisicao_invalida');
    });

    it('checks the token before the body', async () => {
      const response = await service.inject({
        method: 'POST',
        url: '/v1/links',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      expect(response.statusCode).toBe(401);
    });

    it('403 for a deactivated channel', async () => {
      const other = await service.createChannel({ name: 'Desativado' });
      const headers = await service.bearer(other);
      await service.ctx.database.db.updateTable('channels').set({ active: false }).where('id', '=', other.canalId).execute();
      const response = await create({ cpf: '12345678909' }, undefined, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('forbidden');
    });

    it('503 banco_indisponivel with Retry-After for the unavailable-bank CPF, storing nothing', async () => {
      const before = await countLinks();
      const response = await create({ cpf: '00000000434' }, 'chave-banco-fora-1');
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('30');
      expect(response.json()).toEqual({
        code: 'banco_indisponivel',
        message: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
      expect(await countLinks()).toBe(before);
      const keys = await service.ctx.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', 'chave-banco-fora-1')
        .execute();
      expect(keys).toEqual([]);
    });
  });

  describe('idempotency', () => {
    it('replays 200 with the same body, url included', async () => {
      const first = await create({ cpf: '39053344705', referenciaExterna: 'ref-1' }, 'pedido-0001');
      const again = await create({ cpf: '39053344705', referenciaExterna: 'ref-1' }, 'pedido-0001');
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(again.headers['cache-control']).toBe('no-store');
      expect(again.json()).toEqual(first.json());
    });

    it('replays with a different celular (only cpf and referenciaExterna identify the request)', async () => {
      const first = await create({ cpf: '39053344705', celular: '11987654321' }, 'pedido-celular');
      const again = await create({ cpf: '39053344705', celular: '21987654321' }, 'pedido-celular');
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(first.json().id);
    });

    it('409 idempotency_key_conflito for another cpf or another referenciaExterna', async () => {
      await create({ cpf: '71428793860', referenciaExterna: 'a' }, 'pedido-0002');
      const otherCpf = await create({ cpf: '86288366757', referenciaExterna: 'a' }, 'pedido-0002');
      expect(otherCpf.statusCode).toBe(409);
      expect(otherCpf.json().code).toBe('idempotency_key_conflito');
      const otherRef = await create({ cpf: '71428793860', referenciaExterna: 'b' }, 'pedido-0002');
      expect(otherRef.statusCode).toBe(409);
      const noRef = await create({ cpf: '71428793860' }, 'pedido-0002');
      expect(noRef.statusCode).toBe(409);
    });

    it.each([
      ['7 characters', 'abcdefg'],
      ['101 characters', 'a'.repeat(101)],
      ['a space', 'pedido 0003'],
      ['a slash', 'pedido/0003'],
      ['accents', 'pedidoçãoxx'],
      ['empty', ''],
    ])('400 idempotency_key_invalida for %s', async (_name, key) => {
      const response = await service.inject({
        method: 'POST',
        url: '/v1/links',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
        payload: JSON.stringify({ cpf: '12345678909' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('idempotency_key_invalida');
    });

    it('accepts 8 and 100 characters of letters, digits and _ . : -', async () => {
      expect((await create({ cpf: '12345678909' }, 'a_b.c:d-')).statusCode).toBe(201);
      expect((await create({ cpf: '12345678909' }, 'Z9'.repeat(50))).statusCode).toBe(201);
    });

    it('without the header every call creates a new link', async () => {
      const a = await create({ cpf: '12345678909', referenciaExterna: 'sem-chave' });
      const b = await create({ cpf: '12345678909', referenciaExterna: 'sem-chave' });
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(a.json().id).not.toBe(b.json().id);

      // Sent together they share one statement with keyed creations (src/db/batch.ts).
      const burst = await Promise.all([
        create({ cpf: '12345678909', referenciaExterna: 'sem-chave' }),
        create({ cpf: '12345678909', referenciaExterna: 'com-chave' }, 'rajada-mista-1'),
        create({ cpf: '12345678909', referenciaExterna: 'sem-chave' }),
        create({ cpf: '12345678909', referenciaExterna: 'com-chave' }, 'rajada-mista-1'),
      ]);
      expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 201, 201, 201]);
      const ids = new Set(burst.map((r) => r.json().id as string));
      expect(ids.size).toBe(3);
      for (const id of ids)
        expect((await service.inject({ method: 'GET', url: `/v1/links/${id}`, headers: auth })).statusCode).toBe(200);
    });

    it('a failed creation stores nothing: the same key works afterwards', async () => {
      expect((await create({ cpf: '12345678900' }, 'pedido-falha-1')).statusCode).toBe(400);
      expect((await create({ cpf: '00000000434' }, 'pedido-falha-1')).statusCode).toBe(503);
      const ok = await create({ cpf: '12345678909' }, 'pedido-falha-1');
      expect(ok.statusCode).toBe(201);
    });

    it('keys are per channel: one key in two channels gives two links', async () => {
      const other = await service.createChannel({ name: 'Canal B' });
      const otherAuth = await service.bearer(other);
      const a = await create({ cpf: '12345678909' }, 'pedido-compartilhado', auth);
      const b = await create({ cpf: '12345678909' }, 'pedido-compartilhado', otherAuth);
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(a.json().id).not.toBe(b.json().id);
      expect((await get(a.json().id, otherAuth)).statusCode).toBe(404);
      expect((await get(b.json().id, auth)).statusCode).toBe(404);
    });

    it('keys are kept 24 hours', async () => {
      const first = await create({ cpf: '52998224725' }, 'pedido-24h');
      clock.advance(24 * 3600 - 1);
      const late = await service.bearer(channel); // the first token expired meanwhile
      expect((await create({ cpf: '52998224725' }, 'pedido-24h', late)).json().id).toBe(first.json().id);
      clock.advance(1);
      const fresh = await create({ cpf: '11144477735' }, 'pedido-24h', late);
      expect(fresh.statusCode).toBe(201);
      expect(fresh.json().id).not.toBe(first.json().id);
      clock.set('2026-11-22T12:00:00.000Z');
    });

    it('20 concurrent creations with one key, across two api instances, make exactly one link', async () => {
      const second = await secondApiInstance();
      try {
        const before = await countLinks();
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            createLinkVia(
              i % 2 === 0 ? service : second,
              auth,
              { cpf: '86288366757', referenciaExterna: 'corrida' },
              'pedido-corrida-01',
            ),
          ),
        );
        const statuses = responses.map((r) => r.statusCode).sort();
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
        const ids = new Set(responses.filter((r) => r.statusCode !== 409).map((r) => r.json().id));
        expect(ids.size).toBe(1);
        for (const r of responses.filter((r) => r.statusCode === 409)) expect(r.json().code).toBe('idempotency_key_em_uso');
        expect(await countLinks()).toBe(before + 1);
      } finally {
        await second.close();
      }
    });
    it('a burst of creations sharing statements: one link per key, repeats replay, another cpf conflicts', async () => {
      const before = await countLinks();
      const keys = Array.from({ length: 12 }, (_, i) => `rajada-${i}-chave`);
      const requests = [
        ...keys.map((key) => ({ key, cpf: '39053344705' })),
        ...keys.slice(0, 4).map((key) => ({ key, cpf: '39053344705' })),
        { key: keys[5]!, cpf: '71428793860' },
      ];
      const responses = await Promise.all(requests.map(({ key, cpf }) => create({ cpf, referenciaExterna: key }, key)));
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(12);
      expect(statuses.filter((s) => s === 200)).toHaveLength(4);
      expect(responses.at(-1)!.json().code).toBe('idempotency_key_conflito');
      for (let i = 0; i < 4; i++) expect(responses[12 + i]!.json()).toEqual(responses[i]!.json());
      expect(await countLinks()).toBe(before + 12);
    });

    it('two api instances taking the same keys in opposite orders: one link per key, no 5xx', async () => {
      const second = await secondApiInstance();
      try {
        const before = await countLinks();
        const keys = Array.from({ length: 30 }, (_, i) => `cruzada-${String(i).padStart(2, '0')}`);
        const body = (key: string) => ({ cpf: '11144477735', referenciaExterna: key });
        const responses = await Promise.all([
          ...keys.map((key) => createLinkVia(service, auth, body(key), key)),
          ...[...keys].reverse().map((key) => createLinkVia(second, auth, body(key), key)),
        ]);
        for (const r of responses) {
          expect([200, 201, 409]).toContain(r.statusCode);
          if (r.statusCode === 409) expect(r.json().code).toBe('idempotency_key_em_uso');
        }
        expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(30);
        expect(await countLinks()).toBe(before + 30);
      } finally {
        await second.close();
      }
    });
  });

  describe('GET /v1/links/{id}', () => {
    it('returns the link without url', async () => {
      const created = (await create({ cpf: '12345678909', referenciaExterna: 'ref-get' })).json();
      const response = await get(created.id);
      expect(response.statusCode).toBe(200);
      const { url: _url, ...withoutUrl } = created;
      expect(response.json()).toEqual(withoutUrl);
      expect(response.body).not.toContain(linkToken(created.url));
    });

    it('answers concurrent reads from two channels, batched into shared queries, each with its own link or 404', async () => {
      const other = await service.createChannel({ name: 'Canal de leitura' });
      const otherAuth = await service.bearer(other);
      const createMany = (headers: Record<string, string>, cpf: string) =>
        Promise.all(Array.from({ length: 6 }, async () => (await create({ cpf }, undefined, headers)).json().id as string));
      const mine = await createMany(auth, '52998224725');
      const theirs = await createMany(otherAuth, '11144477735');
      const reads: [string, Record<string, string>, number][] = [
        ...mine.map((id): [string, Record<string, string>, number] => [id, auth, 200]),
        ...theirs.map((id): [string, Record<string, string>, number] => [id, otherAuth, 200]),
        ...theirs.map((id): [string, Record<string, string>, number] => [id, auth, 404]),
        ...mine.map((id): [string, Record<string, string>, number] => [id, otherAuth, 404]),
        [mine[0]!, auth, 200],
        ['01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10', auth, 404],
      ];
      const answers = await Promise.all(reads.map(([id, headers]) => get(id, headers)));
      answers.forEach((answer, i) => {
        const [id, , status] = reads[i]!;
        expect({ id, status: answer.statusCode }).toEqual({ id, status });
        if (status === 200) expect(answer.json().id).toBe(id);
        else expect(answer.json().code).toBe('nao_encontrado');
      });
    });

    it.each([
      ['an unknown id', '01936b9e-4c7a-7d1e-9a3f-5b2c8d7e6f10'],
      ['a non-uuid id', 'nao-e-uuid'],
      ['a numeric id', '12345'],
    ])('404 nao_encontrado for %s', async (_name, id) => {
      const response = await get(id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'nao_encontrado',
        message: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
    });

    it('401 without a token, even for a non-uuid id', async () => {
      expect((await service.inject({ method: 'GET', url: '/v1/links/nao-e-uuid' })).statusCode).toBe(401);
    });

    it('reports EXPIRADO as soon as expiraEm passes, and the sweeper persists it', async () => {
      const created = (await create({ cpf: '39053344705' })).json();
      clock.set(created.expiraEm);
      clock.advance(-0.001);
      const late = await service.bearer(channel);
      expect((await get(created.id, late)).json().status).toBe('CRIADO');
      clock.advance(0.001);
      expect((await get(created.id, late)).json().status).toBe('EXPIRADO');
      const stored = () =>
        service.ctx.database.db.selectFrom('links').select('status').where('id', '=', created.id).executeTakeFirstOrThrow();
      expect((await stored()).status).toBe('CRIADO');
      const result = await sweepOnce(service.ctx);
      expect(result.expiredLinks).toBeGreaterThanOrEqual(1);
      expect((await stored()).status).toBe('EXPIRADO');
      clock.set('2026-11-22T12:00:00.000Z');
      // Final: going back in time does not revive it. (The sweep also pruned the
      // tokens that had expired by then, so the later token is used.)
      expect((await get(created.id, late)).json().status).toBe('EXPIRADO');
      auth = await service.bearer(channel);
    });
  });

  it('stores neither the CPF nor the url token in plaintext', async () => {
    const created = (await create({ cpf: '71428793860', celular: '11987654321' })).json();
    const token = linkToken(created.url);
    const row = await service.ctx.database.db
      .selectFrom('links')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const dump = JSON.stringify(row, (_k, v) =>
      v instanceof Uint8Array || (v && v.type === 'Buffer') ? Buffer.from(v.data ?? v).toString('latin1') : v,
    );
    expect(dump).not.toContain('71428793860');
    expect(dump).not.toContain('11987654321');
    expect(dump).not.toContain(token);
    const keyRows = await service.ctx.database.db.selectFrom('idempotency_keys').selectAll().execute();
    const keyDump = JSON.stringify(keyRows, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v));
    expect(keyDump).not.toMatch(/\/c\/[A-Za-z0-9]{43}/);
  });
});

describe('idempotent replay after a restart', () => {
  it('returns the same link and url from a new process on the same database', async () => {
    const dataDir = usingPostgres() ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-restart-'));
    const first = await startTestService(dataDir ? { dataDir } : {});
    const channel = await first.createChannel();
    const created = await createLinkVia(first, await first.bearer(channel), { cpf: '12345678909' }, 'pedido-reinicio');
    expect(created.statusCode).toBe(201);
    const masterKey = first.config.masterKey!.toString('hex');
    const database = first.database;
    await first.app.close();
    await first.ctx.database.close();

    const second = await startTestService({ database, env: { CONSIGNA_MASTER_KEY: masterKey }, ...(dataDir ? { dataDir } : {}) });
    try {
      const replay = await createLinkVia(second, await second.bearer(channel), { cpf: '12345678909' }, 'pedido-reinicio');
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(created.json());
    } finally {
      await second.app.close();
      await second.ctx.database.close();
      await database.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
