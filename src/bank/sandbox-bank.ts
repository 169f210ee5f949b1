// The sandbox bank: nothing leaves the service. Behaviour is chosen by the CPF given
// at link creation (docs/rules.md §6); any other valid CPF follows the
// whole flow. Offers are fictitious but deterministic per CPF (within one installation:
// they derive from a keyed hash), and the signing page is reached by an unguessable token.
import type { Database } from '../db/database.ts';
import type { Keys } from '../crypto/keys.ts';
import { BankUnavailableError, type BankGateway, type Offer } from './bank-gateway.ts';
import { issueSigningPage, SIGNING_PAGE_PATH } from './sandbox-signing.ts';

export const SANDBOX_CODE = '123456';

export const SCENARIOS = {
  inelegivel: '00000000191',
  smsRecusado: '00000000272',
  semOferta: '00000000353',
  indisponivel: '00000000434',
  propostaRecusada: '00000000515',
  semLinkAssinatura: '00000000604',
} as const;

export interface SandboxBankOptions {
  /** The service's public origin: the signing page is ours. */
  signingBaseUrl: string;
  /** The offers' keyed hash, and the signing pages' token hashes. */
  keys: Keys;
  /** Where the signing pages are recorded. */
  database: Database;
}

export function createSandboxBank(options: SandboxBankOptions): BankGateway {
  return {
    async checkAvailability(cpf) {
      if (cpf === SCENARIOS.indisponivel) throw new BankUnavailableError(30);
    },
    async sendCode(cpf) {
      if (cpf === SCENARIOS.smsRecusado)
        return { enviado: false, motivo: 'O banco não conseguiu enviar o código por SMS para este cliente.' };
      return { enviado: true };
    },
    async verifyCode(_cpf, _celular, code) {
      return code === SANDBOX_CODE;
    },
    async checkEligibility(cpf) {
      if (cpf === SCENARIOS.inelegivel) {
        return { elegivel: false, motivo: 'O banco não encontrou vínculo CLT elegível ao consignado privado para este CPF.' };
      }
      return { elegivel: true };
    },
    async listOffers(cpf) {
      return cpf === SCENARIOS.semOferta ? [] : sandboxOffers(options.keys, cpf);
    },
    async createProposal(cpf) {
      if (cpf === SCENARIOS.propostaRecusada)
        return { aceita: false, motivo: 'O banco recusou a criação da proposta (simulação).' };
      return { aceita: true };
    },
    async generateSigningLink(cpf, numero) {
      if (cpf === SCENARIOS.semLinkAssinatura) return { gerado: false, motivo: 'O banco ainda não gerou o link de assinatura.' };
      const token = await issueSigningPage(options, numero);
      return { gerado: true, url: `${options.signingBaseUrl}${SIGNING_PAGE_PATH}${token}` };
    },
  };
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Price-table instalment: PMT = PV·i / (1 − (1+i)^−n). */
export function instalment(valor: number, taxaMensalPercent: number, parcelas: number): number {
  const i = taxaMensalPercent / 100;
  return round2((valor * i) / (1 - (1 + i) ** -parcelas));
}

/**
 * Three offers derived from a keyed hash of the CPF (HMAC, a key derived from the master
 * key): same CPF, same offers, every time in one installation. Keyed because the figures
 * outlive the CPF: the proposal and its events keep them after the personal data is
 * erased, and with a public derivation the masked CPF (six of its digits) and one offer
 * left two candidates for the whole CPF.
 */
export function sandboxOffers(keys: Pick<Keys, 'hash'>, cpf: string): Offer[] {
  const seed = keys.hash('sandbox-offers', cpf);
  const margin = 400 + (seed.readUInt16BE(0) % 1200); // monthly payroll margin, R$ 400–1 599
  const baseRate = 1.79 + (seed[2]! % 120) / 100; // 1,79% to 2,98% a.m.
  const plans = [
    { parcelas: 24, spread: 0.3 },
    { parcelas: 36, spread: 0.15 },
    { parcelas: 48, spread: 0 },
  ];
  return plans.map((plan, index) => {
    const taxaMensal = round2(baseRate + plan.spread);
    const i = taxaMensal / 100;
    // The largest amount whose instalment fits the margin, rounded down to R$ 50.
    const maxValor = (margin * (1 - (1 + i) ** -plan.parcelas)) / i;
    const valor = Math.max(1000, Math.floor(maxValor / 50) * 50);
    const valorParcela = instalment(valor, taxaMensal, plan.parcelas);
    // CET adds IOF and the bank's fees on top of the rate: a fixed 0,12 p.p. here.
    const cetMensal = round2(taxaMensal + 0.12);
    const cetAnual = round2(((1 + cetMensal / 100) ** 12 - 1) * 100);
    return { id: `oferta-${index + 1}`, valor, parcelas: plan.parcelas, valorParcela, taxaMensal, cetMensal, cetAnual };
  });
}
