// The link state machine against a real database: every move the journey makes is
// allowed from exactly the states docs/rules.md §3 draws, and a late or repeated move
// (a second tab, a retried request) finds the status changed and does nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia } from '../helpers/links.ts';
import { LINK_STATUSES, canMove, effectiveStatus, moveLink, type LinkStatus } from '../../src/links/link-states.ts';

describe('link state machine', () => {
  let service: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService();
    auth = await service.bearer(await service.createChannel());
  });
  afterAll(() => service.close());

  const statusOf = async (id: string): Promise<LinkStatus> =>
    (await service.ctx.database.db.selectFrom('links').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  async function newLink(): Promise<string> {
    const created = await createLinkVia(service, auth, { cpf: '52998224725' });
    expect(created.statusCode).toBe(201);
    return created.json().id;
  }

  it('allows only the drawn moves, and final states go nowhere', () => {
    const allowed = LINK_STATUSES.flatMap((from) => LINK_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(
      [
        'CRIADO→ABERTO',
        'CRIADO→CANCELADO',
        'CRIADO→EXPIRADO',
        'ABERTO→EM_ANDAMENTO',
        'ABERTO→CANCELADO',
        'ABERTO→EXPIRADO',
        'EM_ANDAMENTO→CONCLUIDO',
        'EM_ANDAMENTO→CANCELADO',
        'EM_ANDAMENTO→EXPIRADO',
      ].sort(),
    );
  });

  it('moves a stored link along the happy path, once per move', async () => {
    const id = await newLink();
    const now = new Date();
    expect(await moveLink(service.ctx.database.db, id, 'EM_ANDAMENTO', now)).toBe(false); // not opened yet
    expect(await moveLink(service.ctx.database.db, id, 'ABERTO', now, { aberto_em: now })).toBe(true);
    expect(await moveLink(service.ctx.database.db, id, 'ABERTO', now)).toBe(false);
    expect(await moveLink(service.ctx.database.db, id, 'CONCLUIDO', now)).toBe(false); // phone not confirmed
    expect(await moveLink(service.ctx.database.db, id, 'EM_ANDAMENTO', now)).toBe(true);
    expect(await moveLink(service.ctx.database.db, id, 'CONCLUIDO', now)).toBe(true);
    expect(await moveLink(service.ctx.database.db, id, 'CANCELADO', now)).toBe(false); // final
    expect(await statusOf(id)).toBe('CONCLUIDO');
  });

  it('never revives a cancelled link', async () => {
    const id = await newLink();
    const now = new Date();
    expect(await moveLink(service.ctx.database.db, id, 'CANCELADO', now)).toBe(true);
    for (const to of ['ABERTO', 'EM_ANDAMENTO', 'CONCLUIDO'] as const) {
      expect(await moveLink(service.ctx.database.db, id, to, now)).toBe(false);
    }
    expect(await statusOf(id)).toBe('CANCELADO');
  });

  it('reads a live link as EXPIRADO once its time is up, and leaves final states alone', () => {
    const at = new Date('2026-01-08T00:00:00Z');
    const after = new Date(at.getTime() + 1);
    expect(effectiveStatus('EM_ANDAMENTO', at, after)).toBe('EXPIRADO');
    expect(effectiveStatus('EM_ANDAMENTO', at, new Date(at.getTime() - 1))).toBe('EM_ANDAMENTO');
    expect(effectiveStatus('CONCLUIDO', at, after)).toBe('CONCLUIDO');
  });
});
