// Consent evidence is sealed to its link (docs/rules.md §7.8): the IP and user agent are
// sealed with the link id, the text version and the time as associated data. Copied to
// another link in the database, or re-dated, it no longer opens, and the operator's
// export says it is invalid (no IP shown, no crash). Evidence sealed before the binding
// stays readable and is said to be unbound. On both databases.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { createLinkVia, VALID_CPFS } from '../helpers/links.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { consentEvidence } from '../../src/journey/consent-evidence.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const db = () => service.ctx.database.db;

/** A link whose customer went up to the review step (consent given from 127.0.0.1). */
async function consentedLink(auth: Record<string, string>, cpf: string): Promise<string> {
  const link = (await createLinkVia(service, auth, { cpf })).json<{ id: string; url: string }>();
  await new JourneyClient(service, link.url).upToReview();
  return link.id;
}

describe('consent evidence sealed to its link', () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    const auth = await service.bearer(await service.createChannel());
    a = await consentedLink(auth, VALID_CPFS[0]!);
    b = await consentedLink(auth, VALID_CPFS[1]!);
  });

  it('reads as valid on its own link', async () => {
    expect((await consentEvidence(service.ctx, a))?.consentimento).toMatchObject({
      origem: 'pagina',
      ip: '127.0.0.1',
      selo: 'valido',
    });
  });

  it('moved to another link (sealed part, version and time), it is invalid there and shows nothing sealed', async () => {
    await sql`update journeys set (consent_sealed, consent_version, consent_at) =
                (select consent_sealed, consent_version, consent_at from journeys where link_id = ${a})
              where link_id = ${b}`.execute(db());
    const moved = (await consentEvidence(service.ctx, b))?.consentimento;
    expect(moved).toMatchObject({ selo: 'invalido' });
    expect(moved).not.toHaveProperty('ip');
    expect(moved).not.toHaveProperty('userAgent');
    expect(moved).not.toHaveProperty('origem');
    // The original is untouched.
    expect((await consentEvidence(service.ctx, a))?.consentimento?.selo).toBe('valido');
  });

  it('re-dated, it is invalid', async () => {
    const auth = await service.bearer(await service.createChannel());
    const c = await consentedLink(auth, VALID_CPFS[2]!);
    await sql`update journeys set consent_at = consent_at - interval '1 day' where link_id = ${c}`.execute(db());
    expect((await consentEvidence(service.ctx, c))?.consentimento).toMatchObject({ selo: 'invalido' });
  });

  it('sealed before the binding (no associated data), it stays readable and is said to be unbound', async () => {
    const auth = await service.bearer(await service.createChannel());
    const d = await consentedLink(auth, VALID_CPFS[3]!);
    const legacy = service.ctx.keys.seal(JSON.stringify({ origem: 'pagina', ip: '10.1.2.3', userAgent: 'Antigo/1.0' }));
    await sql`update journeys set consent_sealed = ${legacy} where link_id = ${d}`.execute(db());
    expect((await consentEvidence(service.ctx, d))?.consentimento).toMatchObject({
      ip: '10.1.2.3',
      userAgent: 'Antigo/1.0',
      selo: 'sem_vinculo',
    });
  });
});
