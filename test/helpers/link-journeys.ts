// Links taken to each status through the public surface, as a customer and a channel
// would: the hosted page (opening, phone code), the journey simulation, the proposal
// simulator. For the list and funnel tests, which need links in every state.
import { expect } from 'vitest';
import type { TestService } from './service.ts';
import { createLinkVia, VALID_CPFS } from './links.ts';
import { JourneyClient } from './journey.ts';

export interface MadeLink {
  id: string;
  url: string;
  criadoEm: string;
}

export async function makeLink(
  service: TestService,
  auth: Record<string, string>,
  body: { cpf?: string; referenciaExterna?: string } = {},
): Promise<MadeLink> {
  const response = await createLinkVia(service, auth, { cpf: VALID_CPFS[0], ...body });
  expect(response.statusCode, response.body).toBe(201);
  const { id, url, criadoEm } = response.json<MadeLink>();
  return { id, url, criadoEm };
}

/** CRIADO → ABERTO: the customer opens the url. */
export async function open(service: TestService, link: MadeLink): Promise<void> {
  const page = await new JourneyClient(service, link.url).page();
  expect(page.status).toBe(200);
}

/** → EM_ANDAMENTO: opened, started, phone code confirmed. */
export async function confirmPhone(service: TestService, link: MadeLink): Promise<void> {
  const journey = new JourneyClient(service, link.url);
  await journey.page();
  for (const [step, fields] of [
    ['comecar', {}],
    ['celular', { celular: '11987654321' }],
    ['codigo', { codigo: '123456' }],
  ] as const) {
    const answer = await journey.post(step, fields);
    expect(answer.status, `${step}: ${answer.body.slice(0, 300)}`).toBe(303);
  }
}

/** The whole journey (the sandbox's simulation): CONCLUIDO with a proposal, or CANCELADO for an ineligible CPF. */
export async function simulateJourney(service: TestService, auth: Record<string, string>, link: MadeLink): Promise<string> {
  const response = await service.inject({ method: 'POST', url: `/v1/links/${link.id}/jornada/simular`, headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ status: string }>().status;
}

/** Moves the link's proposal, as the bank would. */
export async function simulateProposal(
  service: TestService,
  auth: Record<string, string>,
  link: MadeLink,
  status: 'FORMALIZADA' | 'APROVADA' | 'RECUSADA' | 'CANCELADA',
): Promise<void> {
  const response = await service.inject({
    method: 'POST',
    url: `/v1/links/${link.id}/proposta/simular`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ status }),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The CPF of the sandbox's ineligible customer (docs/rules.md §6): the journey ends CANCELADO. */
export const INELIGIBLE_CPF = '00000000191';
/** The CPF whose proposal gets no signing link: it stays CRIADA. */
export const NO_SIGNING_CPF = '00000000604';
