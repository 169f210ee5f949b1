// Retention (docs/operations.md "Retention"), run by the real sweeper on both databases: exactly what
// is due goes (events with their deliveries and attempts, idempotency keys, expired
// tokens, brute-force counters, the customer's personal data), in small batches, and
// everything else stays, final statuses readable through the API.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { channelWith, type ChannelSetup } from '../webhooks/support.ts';
import { sweepOnce } from '../../src/sweeper/sweeper.ts';
import { CONSENT_VERSION } from '../../src/journey/consent.ts';

const T0 = Date.parse('2026-10-01T12:00:00.000Z');
const DAY = 86_400_000;
const clock = new ManualClock(new Date(T0).toISOString());
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    clock,
    env: {
      CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true',
      // Configured, not the defaults: the sweeper must read them.
      CONSIGNA_RETENTION_EVENTS_DAYS: '20',
      CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: '10',
      CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: '48',
    },
  });
});
afterAll(() => service?.close());

const db = () => service.ctx.database.db;
const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(db())).rows[0]!.n;
const at = (days: number) => new Date(T0 + days * DAY);

interface Seeded {
  due: Set<string>;
  kept: Set<string>;
}

/**
 * Events of the channel across every case, each (but the ones said) with a delivery and
 * `attempts` attempt rows. Due at day 20 + `final` for the events config (20 days).
 */
async function seed(channelId: string, n: number): Promise<Seeded> {
  const due = new Set<string>();
  const kept = new Set<string>();
  // [occurred (day), delivery status or null, last attempt (day), due at day 31?]
  const cases: Array<[number, 'ENTREGUE' | 'FALHOU' | 'PENDENTE' | null, number, boolean]> = [
    [1, 'ENTREGUE', 1, true], // delivered 30 days ago
    [2, 'FALHOU', 3, true], // failed for good 28 days ago
    [1, null, 0, true], // no webhook then: no delivery
    [1, 'ENTREGUE', 25, false], // resent 6 days ago: final only since then
    [1, 'PENDENTE', 1, false], // recovered and waiting: never removed
    [15, 'ENTREGUE', 15, false], // 16 days: not yet
    [30, null, 0, false],
  ];
  for (let i = 0; i < n; i++) {
    const [occurred, status, last, isDue] = cases[i % cases.length]!;
    const ocorrido = new Date(at(occurred).getTime() + i); // distinct times
    const eventId = crypto.randomUUID();
    await sql`insert into events (id, channel_id, tipo, payload, ocorrido_em)
              values (${eventId}, ${channelId}, 'proposta.aprovada', ${`{"i":${i}}`}, ${ocorrido})`.execute(db());
    if (status) {
      const deliveryId = crypto.randomUUID();
      await sql`insert into deliveries (id, event_id, channel_id, tipo, status, tentativas, next_attempt_at, last_attempt_at, criado_em)
                values (${deliveryId}, ${eventId}, ${channelId}, 'proposta.aprovada', ${status}, 2,
                        ${status === 'PENDENTE' ? ocorrido : null}, ${at(last)}, ${ocorrido})`.execute(db());
      await sql`insert into delivery_attempts (delivery_id, channel_id, attempt, attempted_at, http_status, latency_ms, response_body)
                select ${deliveryId}, ${channelId}, a, ${at(last)}, 200, 3, 'ok' from generate_series(1, 2) as a`.execute(db());
    }
    (isDue ? due : kept).add(eventId);
  }
  return { due, kept };
}

const eventIds = async (channelId: string) =>
  new Set((await sql<{ id: string }>`select id from events where channel_id = ${channelId}`.execute(db())).rows.map((r) => r.id));

describe('the sweeper’s retention', () => {
  let a: ChannelSetup;
  let b: ChannelSetup;
  let seededA: Seeded;
  let seededB: Seeded;
  let concluded: { id: string; url: string };
  let live: { id: string };

  beforeAll(async () => {
    a = await channelWith(service, 'http://127.0.0.1:9/webhook');
    b = await channelWith(service);
    // A customer who went all the way (personal data in the link and the journey), with an Idempotency-Key.
    const created = await createLinkVia(service, a.auth, { cpf: VALID_CPFS[0], celular: '11987654321' }, 'chave-retencao-1');
    expect(created.statusCode, created.body).toBe(201);
    concluded = created.json();
    const journey = new JourneyClient(service, concluded.url);
    await journey.upToReview();
    expect((await journey.post('proposta')).status).toBe(303);
    // What the erasure must take away is there to begin with.
    const stored = await sql<{ n: number }>`
      select count(*)::int as n from links l join journeys j on j.link_id = l.id
      where l.id = ${concluded.id} and l.cpf_sealed is not null and l.celular_sealed is not null
        and j.customer_sealed is not null and j.consent_sealed is not null and j.signing_url_sealed is not null
        and j.offers is not null`.execute(db());
    expect(stored.rows[0]!.n).toBe(1);
    live = (await createLinkVia(service, a.auth, { cpf: VALID_CPFS[1], celular: '11987654321' })).json();
    seededA = await seed(a.canalId, 70);
    seededB = await seed(b.canalId, 2300);
  });

  it('removes exactly the events whose delivery has been final for the period, with their deliveries and attempts', async () => {
    const beforeA = await eventIds(a.canalId);
    clock.set(at(31).toISOString());
    // A stopping process ends the round between statements: here before the first one.
    let checks = 0;
    const stopped = await sweepOnce(service.ctx, { batch: 100, stopping: () => checks++ > 2 });
    expect(stopped.prunedEvents).toBe(0);
    expect(await eventIds(a.canalId)).toEqual(beforeA);
    const result = await sweepOnce(service.ctx, { batch: 100 });
    expect(result.skipped).toBe(false);
    expect(result.prunedEvents).toBe(seededA.due.size + seededB.due.size);

    const afterA = await eventIds(a.canalId);
    const afterB = await eventIds(b.canalId);
    expect([...seededB.due].filter((id) => afterB.has(id))).toEqual([]);
    expect([...seededB.kept].filter((id) => !afterB.has(id))).toEqual([]);
    expect(afterB.size).toBe(seededB.kept.size);
    // Channel A's real events (the journey's, recent and pending) stay beside its seeded ones.
    expect(afterA).toEqual(new Set([...beforeA].filter((id) => !seededA.due.has(id))));
    // Nothing left behind: no delivery without its event, no attempt without its delivery.
    expect(
      await count(
        sql`select count(*)::int as n from deliveries d where not exists (select 1 from events e where e.id = d.event_id)`,
      ),
    ).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from delivery_attempts a where not exists (select 1 from deliveries d where d.id = a.delivery_id)`,
      ),
    ).toBe(0);
    // The kept deliveries kept their attempts.
    expect(
      await count(sql`select count(*)::int as n from delivery_attempts a join deliveries d on d.id = a.delivery_id
                      where d.channel_id = ${b.canalId}`),
    ).toBe(2 * (await count(sql`select count(*)::int as n from deliveries where channel_id = ${b.canalId}`)));

    // A removed event and delivery are 404 through the API; a kept one is still there.
    a.auth = await service.bearer(a.channel);
    const [gone] = [...seededA.due];
    expect((await service.inject({ method: 'GET', url: `/v1/eventos/${gone}`, headers: a.auth })).statusCode).toBe(404);
    const [stays] = [...seededA.kept];
    expect((await service.inject({ method: 'GET', url: `/v1/eventos/${stays}`, headers: a.auth })).statusCode).toBe(200);

    // A second round finds nothing more.
    expect((await sweepOnce(service.ctx, { batch: 100 })).prunedEvents).toBe(0);
  });

  it('forgets Idempotency-Key records after the configured hours, not before', async () => {
    const keys = () => count(sql`select count(*)::int as n from idempotency_keys where key = 'chave-retencao-1'`);
    // Created at T0; the sweep at day 31 removed it (48 h). A fresh one stays until then.
    expect(await keys()).toBe(0);
    const fresh = await createLinkVia(service, a.auth, { cpf: VALID_CPFS[2] }, 'chave-retencao-2');
    expect(fresh.statusCode).toBe(201);
    const freshKeys = () => count(sql`select count(*)::int as n from idempotency_keys where key = 'chave-retencao-2'`);
    clock.advance(47 * 3600);
    await sweepOnce(service.ctx);
    expect(await freshKeys()).toBe(1);
    clock.advance(3600 + 1);
    expect((await sweepOnce(service.ctx)).prunedIdempotencyKeys).toBe(1);
    expect(await freshKeys()).toBe(0);
  });

  it('erases the customer’s personal data a set time after the link is final; masked CPF, statuses and proposal stay', async () => {
    // The link was CONCLUIDO at T0: its personal data went in the day-31 sweep (10 days).
    const link = await sql<{
      cpf_sealed: unknown;
      cpf_hash: unknown;
      celular_sealed: unknown;
      personal_data_erased_at: Date | null;
    }>`select cpf_sealed, cpf_hash, celular_sealed, personal_data_erased_at from links where id = ${concluded.id}`.execute(db());
    expect(link.rows[0]).toEqual({ cpf_sealed: null, cpf_hash: null, celular_sealed: null, personal_data_erased_at: at(31) });
    const journey = await sql<{
      celular_sealed: unknown;
      customer_sealed: unknown;
      signing_url_sealed: unknown;
      offers: unknown;
      consent_sealed: unknown;
      consent_version: string | null;
    }>`select celular_sealed, customer_sealed, signing_url_sealed, offers, consent_sealed, consent_version
       from journeys where link_id = ${concluded.id}`.execute(db());
    // The consent's IP and user agent go with the rest, and the offers (derived from the
    // CPF; test/retention/erasure.test.ts); the consent's version and time stay.
    expect(journey.rows[0]).toMatchObject({
      celular_sealed: null,
      customer_sealed: null,
      signing_url_sealed: null,
      offers: null,
      consent_sealed: null,
    });
    expect(journey.rows[0]!.consent_version).toBe(CONSENT_VERSION);

    a.auth = await service.bearer(a.channel);
    const view = (await service.inject({ method: 'GET', url: `/v1/links/${concluded.id}`, headers: a.auth })).json();
    expect(view).toMatchObject({
      status: 'CONCLUIDO',
      cpfMascarado: '***.456.789-**',
      proposta: { numero: expect.any(Number), status: 'AGUARDANDO_FORMALIZACAO' },
      dadosPessoaisRemovidosEm: at(31).toISOString(),
      consentimento: { versao: CONSENT_VERSION, concedidoEm: new Date(T0).toISOString() },
    });
    // The hosted page still opens, and says why the signing link is gone.
    const page = await new JourneyClient(service, concluded.url).page();
    expect(page.status).toBe(200);
    expect(page.body).toContain('dados pessoais já foram apagados');
    expect(page.body).toContain(`Proposta nº ${view.proposta.numero}`);

    // The other link was live at day 31: the sweep expired it (final from then), and kept its data.
    const liveRow = async () =>
      (
        await sql<{ status: string; cpf_sealed: unknown; personal_data_erased_at: Date | null }>`
          select status, cpf_sealed, personal_data_erased_at from links where id = ${live.id}`.execute(db())
      ).rows[0]!;
    expect(await liveRow()).toMatchObject({ status: 'EXPIRADO', personal_data_erased_at: null });
    expect((await liveRow()).cpf_sealed).not.toBeNull();
    const linkView = () => service.inject({ method: 'GET', url: `/v1/links/${live.id}`, headers: a.auth });
    expect((await linkView()).json().dadosPessoaisRemovidosEm).toBeUndefined();
    // Ten days after it expired, it goes too.
    clock.set(at(31 + 10 + 1).toISOString());
    const swept = await sweepOnce(service.ctx);
    expect(swept.erasedPersonalData).toBe(1);
    expect(await liveRow()).toMatchObject({ status: 'EXPIRADO', cpf_sealed: null, personal_data_erased_at: at(42) });
    a.auth = await service.bearer(a.channel);
    expect((await linkView()).json()).toMatchObject({ status: 'EXPIRADO', cpfMascarado: '***.982.247-**' });
  });

  it('forgets expired tokens and brute-force counters once they no longer count', async () => {
    const tokens = () => count(sql`select count(*)::int as n from access_tokens where expires_at < ${clock.now()}`);
    const failures = () => count(sql`select count(*)::int as n from auth_failures`);
    await service.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=nao-existe&client_secret=errado',
    });
    expect(await failures()).toBeGreaterThan(0);
    clock.advance(2 * 86_400);
    expect(await tokens()).toBeGreaterThan(0);
    const swept = await sweepOnce(service.ctx);
    expect(swept.prunedTokens).toBeGreaterThan(0);
    expect(swept.prunedAuthFailures).toBeGreaterThan(0);
    expect([await tokens(), await failures()]).toEqual([0, 0]);
  });
});
