// Batched statements (src/db/batch.ts) never let one request's input fail another's
// (issue 13, finding 2). Each batched path gets a poisoned input inside a burst of good
// ones, straight at the repository, where no route validation stands in front: every
// good one gets its own correct answer, and only the poisoned one fails. Once, a NUL
// byte in one client_id failed the token lookups of every channel in its batch.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { batched } from '../../src/db/batch.ts';
import { lookUpClient, storeToken } from '../../src/auth/token.repository.ts';
import { findLinkView, insertLinkWithKey } from '../../src/links/links.repository.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';

/** Runs every call in one turn of the event loop (one batch), returning each outcome. */
const together = <T>(calls: (() => Promise<T>)[]) => Promise.allSettled(calls.map((call) => call()));

describe('a poisoned input inside a batch', () => {
  let service: TestService;
  let a: IssuedCredentials;
  let b: IssuedCredentials;
  let channelB: string;

  beforeAll(async () => {
    service = await startTestService();
    a = await service.createChannel({ name: 'A' });
    b = await service.createChannel({ name: 'B' });
    channelB = b.canalId;
  });
  afterAll(() => service.close());

  it('token lookup: a NUL in one client_id fails only that lookup', async () => {
    const db = service.ctx.database.db;
    const now = new Date();
    const outcomes = await together([
      ...Array.from({ length: 8 }, () => () => lookUpClient(db, b.clientId, '203.0.113.1', now)),
      ...Array.from({ length: 8 }, (_, i) => () => lookUpClient(db, `cid_x${i}\u0000`, '203.0.113.2', now)),
    ]);
    for (const good of outcomes.slice(0, 8)) {
      expect(good.status).toBe('fulfilled');
      expect((good as PromiseFulfilledResult<Awaited<ReturnType<typeof lookUpClient>>>).value.channel?.id).toBe(channelB);
    }
    for (const bad of outcomes.slice(8)) expect(bad.status).toBe('rejected');
  });

  it('token insert: a bad channel id fails only its own token', async () => {
    const db = service.ctx.database.db;
    const expiresAt = new Date(Date.now() + 60_000);
    const hashes = Array.from({ length: 6 }, () => randomBytes(32));
    const outcomes = await together([
      ...hashes.map((tokenHash) => () => storeToken(db, { tokenHash, channelId: channelB, expiresAt })),
      () => storeToken(db, { tokenHash: randomBytes(32), channelId: 'not-a-uuid', expiresAt }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([...hashes.map(() => 'fulfilled'), 'rejected']);
    const stored = await db.selectFrom('access_tokens').select('token_hash').where('token_hash', 'in', hashes).execute();
    expect(stored).toHaveLength(hashes.length);
  });

  it('link read: a malformed id fails only its own read, and no read lends a link to another channel', async () => {
    const authA = await service.bearer(a);
    const authB = await service.bearer(b);
    const linkA = (await createLinkVia(service, authA, { cpf: VALID_CPFS[0]! })).json();
    const linkB = (await createLinkVia(service, authB, { cpf: VALID_CPFS[1]! })).json();
    const db = service.ctx.database.db;
    const outcomes = await together<unknown>([
      () => findLinkView(db, a.canalId, linkA.id),
      () => findLinkView(db, b.canalId, linkB.id),
      () => findLinkView(db, b.canalId, 'not-a-uuid'),
      () => findLinkView(db, a.canalId, linkB.id),
      () => findLinkView(db, a.canalId, linkA.id),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const ids = outcomes.map((o) => (o.status === 'fulfilled' ? (o.value as { id: string } | undefined)?.id : 'error'));
    expect(ids).toEqual([linkA.id, linkB.id, 'error', undefined, linkA.id]);
  });

  it('link insert: a NUL in one reference fails only that link; the others are stored', async () => {
    const db = service.ctx.database.db;
    const now = new Date();
    const row = (referencia: string) => ({
      id: randomUUID(),
      channel_id: channelB,
      ambiente: 'SANDBOX',
      token_hash: randomBytes(32),
      cpf_sealed: service.ctx.keys.seal(VALID_CPFS[2]!),
      cpf_hash: randomBytes(32),
      cpf_masked: '***.444.777-**',
      celular_sealed: null,
      referencia_externa: referencia,
      status: 'CRIADO' as const,
      expira_em: new Date(now.getTime() + 86_400_000),
      criado_em: now,
      aberto_em: null,
      updated_at: now,
    });
    const good = Array.from({ length: 5 }, (_, i) => row(`lote-${i}`));
    const poisoned = row('veneno\u0000');
    const outcomes = await together([
      ...good.map((link) => () => insertLinkWithKey(db, link, undefined)),
      () => insertLinkWithKey(db, poisoned, undefined),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([...good.map(() => 'fulfilled'), 'rejected']);
    const stored = await db
      .selectFrom('links')
      .select('id')
      .where(
        'id',
        'in',
        [...good, poisoned].map((l) => l.id),
      )
      .execute();
    expect(stored.map((r) => r.id).sort()).toEqual(good.map((l) => l.id).sort());
  });
});

describe('batched()', () => {
  it('fails a whole batch at once, without retries, when the database is unavailable', async () => {
    let calls = 0;
    const load = batched(async (keys: readonly number[]) => {
      calls += 1;
      throw Object.assign(new Error(`connect ECONNREFUSED (${keys.length} keys)`), { code: 'ECONNREFUSED' });
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((k) => load(k)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(calls).toBe(1);
  });

  it('loads each key alone after any other failure, so each gets its own answer', async () => {
    const seen: number[][] = [];
    const load = batched(async (keys: readonly number[]) => {
      seen.push([...keys]);
      if (keys.includes(13)) throw new Error('bad key');
      return keys.map((k) => k * 2);
    });
    const outcomes = await Promise.allSettled([1, 13, 3].map((k) => load(k)));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('bad key') },
      { status: 'fulfilled', value: 6 },
    ]);
    expect(seen).toEqual([[1, 13, 3], [1], [13], [3]]);
  });
});
