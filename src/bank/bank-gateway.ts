// The one seam between Consigna and the partner bank. The sandbox simulator is the
// only implementation today; a production connector implements the same interface.

export interface Offer {
  id: string;
  /** Amount released to the customer, in reais (two decimals). */
  valor: number;
  parcelas: number;
  valorParcela: number;
  /** Monthly interest rate, percent (e.g. 2.19 = 2,19% a.m.). */
  taxaMensal: number;
  /** Total effective cost, percent per month and per year. */
  cetMensal: number;
  cetAnual: number;
}

export interface CustomerData {
  nome: string;
  dataNascimento: string;
  email: string;
  chavePix: string;
}

export type Eligibility = { elegivel: true } | { elegivel: false; motivo: string };
export type CodeDispatch = { enviado: true } | { enviado: false; motivo: string };
export type ProposalCreation = { aceita: true } | { aceita: false; motivo: string };
export type SigningLink = { gerado: true; url: string } | { gerado: false; motivo: string };

export class BankUnavailableError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds = 30) {
    super('bank unavailable');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface BankGateway {
  /** Throws BankUnavailableError when the bank cannot take this customer now. */
  checkAvailability(cpf: string): Promise<void>;
  sendCode(cpf: string, celular: string): Promise<CodeDispatch>;
  verifyCode(cpf: string, celular: string, code: string): Promise<boolean>;
  checkEligibility(cpf: string): Promise<Eligibility>;
  listOffers(cpf: string): Promise<Offer[]>;
  createProposal(cpf: string, offer: Offer, customer: CustomerData): Promise<ProposalCreation>;
  generateSigningLink(cpf: string, numero: number): Promise<SigningLink>;
}

const OPERATIONS = [
  'checkAvailability',
  'sendCode',
  'verifyCode',
  'checkEligibility',
  'listOffers',
  'createProposal',
  'generateSigningLink',
] as const satisfies ReadonlyArray<keyof BankGateway>;

/**
 * The gateway with a client span per call (tracing on): the bank is the one slow party a
 * journey step waits for. Named after the operation only: never a CPF, phone, code or
 * any other argument, nor the answer.
 */
export function tracedBank(bank: BankGateway, inSpan: <T>(name: string, work: () => Promise<T>) => Promise<T>): BankGateway {
  const traced = {} as Record<keyof BankGateway, (...args: never[]) => Promise<unknown>>;
  for (const operation of OPERATIONS) {
    const call = bank[operation] as (...args: unknown[]) => Promise<unknown>;
    traced[operation] = (...args: unknown[]) => inSpan(`banco ${operation}`, () => call.apply(bank, args));
  }
  return traced as unknown as BankGateway;
}
