// After the personal-data erasure (docs/rules.md §3.10) nothing stored identifies the
// CPF: not the sealed CPF and its keyed hash, not the offers the journey kept (derived
// from the CPF), not the Idempotency-Key record (its fingerprint is a keyed hash of the
// CPF; kept a year here, longer than the data), not the signing page (its link goes with
// the data). Every table is read as text and searched for the CPF and what derives from
// it. And the figures that stay (proposal, events) no longer lead back to the CPF: the
// sandbox derives offers with a key, so the masked CPF plus an event's figures, run
// through the old public derivation, no longer single the CPF out. Both databases.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { sweepOnce } from '../../src/sweeper/sweeper.ts';
import { sandboxOffers } from '../../src/bank/sandbox-bank.ts';
import { deriveKeys } from '../../src/crypto/keys.ts';
import { isValidCpf, maskCpf } from '../../src/links/cpf.ts';

const CPF = '86288366757';
const DAY = 86_400;
const clock = new ManualClock('2026-10-01T12:00:00.000Z');
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    clock,
    env: { CONSIGNA_RETENTION_PERSONAL_DATA_DAYS: '1', CONSIGNA_RETENTION_IDEMPOTENCY_HOURS: '8760' },
  });
});
afterAll(() => service?.close());

const db = () => service.ctx.database.db;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Every row of every table of the service, as PostgreSQL's text of the row (bytea as hex). */
async function everyRowAsText(): Promise<Array<{ table: string; row: string }>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db());
  const rows: Array<{ table: string; row: string }> = [];
  for (const { name } of tables.rows) {
    const result = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(db());
    for (const { row } of result.rows) rows.push({ table: name, row });
  }
  return rows;
}

/** The offers as the sandbox derived them before they were keyed (public: anyone could run it). */
function publicOffers(cpf: string): Array<{ valor: number; parcelas: number }> {
  const seed = createHash('sha256').update(`consigna-sandbox-offers:${cpf}`).digest();
  const margin = 400 + (seed.readUInt16BE(0) % 1200);
  const baseRate = 1.79 + (seed[2]! % 120) / 100;
  return [
    { parcelas: 24, spread: 0.3 },
    { parcelas: 36, spread: 0.15 },
    { parcelas: 48, spread: 0 },
  ].map((plan) => {
    const i = Math.round((baseRate + plan.spread) * 100) / 100 / 100;
    const maxValor = (margin * (1 - (1 + i) ** -plan.parcelas)) / i;
    return { valor: Math.max(1000, Math.floor(maxValor / 50) * 50), parcelas: plan.parcelas };
  });
}

/** Every valid CPF a masked CPF (`***.456.789-**`) allows: a thousand. */
function candidatesOf(masked: string): string[] {
  const middle = masked.slice(4, 7) + masked.slice(8, 11);
  const out: string[] = [];
  for (let head = 0; head < 1000; head++) {
    for (let tail = 0; tail < 100; tail++) {
      const cpf = `${String(head).padStart(3, '0')}${middle}${String(tail).padStart(2, '0')}`;
      if (isValidCpf(cpf)) out.push(cpf);
    }
  }
  return out;
}

describe('after the personal-data erasure', () => {
  let linkId: string;
  let signingPath: string;
  let before: { cpfHash: string; fingerprint: string; offers: string };

  beforeAll(async () => {
    const channel = await service.createChannel();
    const auth = await service.bearer(channel);
    const created = await createLinkVia(service, auth, { cpf: CPF, celular: '11987654321' }, 'chave-apagamento-1');
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json<{ id: string; url: string }>();
    linkId = link.id;
    const journey = new JourneyClient(service, link.url);
    await journey.upToReview();
    expect((await journey.post('proposta')).status).toBe(303);
    const result = await journey.page();
    const signing = /href="http:\/\/127\.0\.0\.1:3000(\/sandbox\/assinatura\/([A-Za-z0-9]{43}))"/.exec(result.body)!;
    rememberSecret(signing[2]);
    signingPath = signing[1]!;
    expect((await service.inject({ method: 'GET', url: signingPath })).statusCode).toBe(200);

    // What derives from the CPF is there to begin with.
    const stored = await sql<{ cpf_hash: Uint8Array; fingerprint: Uint8Array; offers: unknown }>`
      select l.cpf_hash, k.fingerprint, j.offers from links l
      join idempotency_keys k on k.link_id = l.id join journeys j on j.link_id = l.id
      where l.id = ${linkId}`.execute(db());
    const row = stored.rows[0]!;
    before = { cpfHash: hex(row.cpf_hash), fingerprint: hex(row.fingerprint), offers: JSON.stringify(row.offers) };
    expect(before.offers).toContain('cetAnual');

    clock.advance(2 * DAY);
    expect((await sweepOnce(service.ctx)).erasedPersonalData).toBe(1);
  });

  it('keeps no stored column derived from the CPF, in any table', async () => {
    const rows = await everyRowAsText();
    expect(rows.length).toBeGreaterThan(10);
    const derived = [CPF, before.cpfHash, before.fingerprint, 'cetAnual', 'taxaMensal'];
    const found = rows.filter(({ row }) => derived.some((value) => row.includes(value)));
    expect(found).toEqual([]);

    const journey = await sql<{ offers: unknown; signing_url_sealed: unknown }>`
      select offers, signing_url_sealed from journeys where link_id = ${linkId}`.execute(db());
    expect(journey.rows[0]).toEqual({ offers: null, signing_url_sealed: null });
    const keys = await sql<{ n: number }>`select count(*)::int as n from idempotency_keys where link_id = ${linkId}`.execute(
      db(),
    );
    expect(keys.rows[0]!.n).toBe(0);
    const pages = await sql<{ n: number }>`
      select count(*)::int as n from sandbox_signing_pages s join proposals p on p.numero = s.numero
      where p.link_id = ${linkId}`.execute(db());
    expect(pages.rows[0]!.n).toBe(0);
  });

  it('turns the signing link into a 404 and keeps the masked CPF, the statuses and the proposal', async () => {
    expect((await service.inject({ method: 'GET', url: signingPath })).statusCode).toBe(404);
    const view = await sql<{ cpf_masked: string; status: string; valor_centavos: number }>`
      select l.cpf_masked, l.status, p.valor_centavos from links l join proposals p on p.link_id = l.id
      where l.id = ${linkId}`.execute(db());
    expect(view.rows[0]).toMatchObject({ cpf_masked: maskCpf(CPF), status: 'CONCLUIDO' });
  });

  it('leaves figures that, with the masked CPF, no longer single the CPF out', async () => {
    const events = await sql<{ payload: string }>`
      select payload from events where link_id = ${linkId} and tipo = 'proposta.criada'`.execute(db());
    const { proposta } = JSON.parse(events.rows[0]!.payload) as { proposta: { valor: number; parcelas: number } };
    // What a channel could do with the old public derivation: 1,000 candidates, then the
    // ones whose offers include the event's figures.
    const candidates = candidatesOf(maskCpf(CPF));
    expect(candidates).toHaveLength(1000);
    expect(candidates).toContain(CPF);
    const matching = candidates.filter((cpf) =>
      publicOffers(cpf).some((o) => o.valor === proposta.valor && o.parcelas === proposta.parcelas),
    );
    expect(matching).not.toContain(CPF);
  });
});

describe('the sandbox offers', () => {
  it('derive from a keyed hash of the CPF: the same under one master key, others under another', () => {
    const one = deriveKeys(randomBytes(32));
    const other = deriveKeys(randomBytes(32));
    expect(sandboxOffers(one, CPF)).toEqual(sandboxOffers(one, CPF));
    const figures = (keys: typeof one) => sandboxOffers(keys, CPF).map((o) => [o.valor, o.taxaMensal]);
    // Three offers, each a value and a rate: equal under two random keys by chance far below one in a million.
    expect(figures(one)).not.toEqual(figures(other));
  });
});
