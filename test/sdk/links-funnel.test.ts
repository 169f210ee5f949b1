// The SDK's listLinks, links() and getFunnel against a real service on a real port: the
// pages and their cursor, every page through the generator, the funnel's typed answer,
// and a bad period as a typed error with the service's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Consigna, ConsignaError } from '../../packages/sdk/src/index.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { VALID_CPFS } from '../helpers/links.ts';

const clock = new ManualClock('2026-11-10T02:30:00.000Z');
let service: TestService;
let consigna: Consigna;

beforeAll(async () => {
  service = await startTestService({ listen: true, clock });
  const channel = await service.createChannel();
  consigna = new Consigna({ baseUrl: service.baseUrl, clientId: channel.clientId, clientSecret: channel.clientSecret });
});
afterAll(() => service?.close());

describe('links and funnel through the SDK', () => {
  it('lists pages, walks every link, and reads the funnel by day and by reference', async () => {
    rememberSecret(VALID_CPFS[1]);
    const created = [];
    for (const referenciaExterna of ['loja-1', 'loja-1', 'loja-2']) {
      const link = await consigna.createLink({ cpf: VALID_CPFS[1]!, referenciaExterna });
      rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
      created.push(link.id);
      clock.advance(3600);
    }
    const first = await consigna.listLinks({ limite: 2 });
    expect(first.links.map((l) => l.id)).toEqual([created[2], created[1]]);
    expect(first.links[0]).not.toHaveProperty('url');
    const rest = await consigna.listLinks({ limite: 2, cursor: first.proximoCursor! });
    expect(rest.links.map((l) => l.id)).toEqual([created[0]]);
    expect(rest.proximoCursor).toBeUndefined();
    const all = [];
    for await (const link of consigna.links({ referenciaExterna: 'loja-1', limite: 1 })) all.push(link.id);
    expect(all).toEqual([created[1], created[0]]);

    // 02:30 UTC on Nov 10 is Nov 9 in São Paulo; the next two, Nov 10.
    const byDay = await consigna.getFunnel({ de: '2026-11-09', ate: '2026-11-10' });
    expect(byDay.fusoHorario).toBe('America/Sao_Paulo');
    expect(byDay.grupos.map((g) => [g.dia, g.criados])).toEqual([
      ['2026-11-09', 1],
      ['2026-11-10', 2],
    ]);
    const byReference = await consigna.getFunnel({
      de: '2026-11-09',
      ate: '2026-11-10',
      agruparPor: 'referenciaExterna',
      limite: 1,
    });
    expect(byReference.grupos.map((g) => [g.referenciaExterna, g.criados])).toEqual([['loja-1', 2]]);
    expect(byReference.outros).toMatchObject({ referencias: 1, criados: 1 });

    const error = await consigna.getFunnel({ de: '2026-11-10', ate: '2026-11-09' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsignaError);
    expect(error).toMatchObject({ status: 400, code: 'periodo_invalido' });
  });
});
