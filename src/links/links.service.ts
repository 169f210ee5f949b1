// Link creation with idempotency (docs/rules.md §3) and link reads.
import type { Context } from '../context.ts';
import { CLEAN_TEXT_RULE, isCleanText } from '../text/unicode.ts';
import { AppError, badRequest, conflict, notFound } from '../errors.ts';
import { addSeconds } from '../clock.ts';
import { isUuid, newLinkToken, uuidv7 } from '../crypto/random.ts';
import { constantTimeEqual } from '../crypto/keys.ts';
import { BankUnavailableError } from '../bank/bank-gateway.ts';
import { messageFor } from '../text/messages.ts';
import { isValidCpf, maskCpf } from './cpf.ts';
import { isValidCelular } from './celular.ts';
import { findIdempotencyKey, findLinkView, insertLinkWithKey, type LinkView, type NewLink } from './links.repository.ts';
import { toLinkResource, type LinkResource } from './link-resource.ts';
import { currentTraceparent } from '../observability/tracing.ts';

type Deps = Pick<Context, 'database' | 'keys' | 'clock' | 'config' | 'bank'>;

export interface CreateLinkInput {
  channelId: string;
  cpf: unknown;
  celular?: unknown;
  referenciaExterna?: unknown;
  urlRetorno?: unknown;
  /** The raw Idempotency-Key header, if any. */
  idempotencyKey?: string | undefined;
}

export interface CreatedLink extends LinkResource {
  url: string;
}

export interface CreateLinkResult {
  replayed: boolean;
  link: CreatedLink;
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

export const hashLinkToken = (deps: Pick<Context, 'keys'>, token: string): Buffer => deps.keys.hash('link-token', token);
export const hashCpf = (deps: Pick<Context, 'keys'>, cpf: string): Buffer => deps.keys.hash('cpf', cpf);

export async function createLink(deps: Deps, input: CreateLinkInput): Promise<CreateLinkResult> {
  if (!isValidCpf(input.cpf)) throw badRequest('cpf_invalido', messageFor('cpf_invalido'));
  const cpf = input.cpf;
  if (input.celular !== undefined && !isValidCelular(input.celular))
    throw badRequest('celular_invalido', messageFor('celular_invalido'));
  const celular = input.celular as string | undefined;
  const referenciaExterna = normalizeReference(input.referenciaExterna);
  const urlRetorno = parseReturnUrl(input.urlRetorno, deps.config.allowInsecureWebhooks);
  if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(input.idempotencyKey)) {
    throw badRequest('idempotency_key_invalida', messageFor('idempotency_key_invalida'));
  }
  const key = input.idempotencyKey;
  // urlRetorno joins the fingerprint only when sent, so keys taken before it existed still match.
  const fingerprint = deps.keys.hash(
    'link-request',
    `${cpf}\n${referenciaExterna ?? ''}${urlRetorno !== undefined ? `\n${urlRetorno}` : ''}`,
  );
  const now = deps.clock.now();
  const cutoff = addSeconds(now, -deps.config.retention.idempotencyHours * 3600);

  // The bank is asked first and the key is looked up only when the insert finds it
  // taken: a new link costs one round trip to the database, a replay two.
  try {
    await deps.bank.checkAvailability(cpf);
  } catch (error) {
    if (!(error instanceof BankUnavailableError)) throw error;
    // A replay (or a conflict) of this key answers as it would have with the bank up.
    const replay = key === undefined ? undefined : await replayOf(deps, input.channelId, key, fingerprint, cutoff);
    if (replay) return replay;
    throw new AppError(
      503,
      'banco_indisponivel',
      'O banco está indisponível no momento. Repita a criação com a mesma Idempotency-Key em instantes.',
      { headers: { 'retry-after': String(error.retryAfterSeconds) } },
    );
  }

  const id = uuidv7(now.getTime());
  const token = newLinkToken();
  const link: CreatedLink = {
    id,
    url: `${deps.config.publicBaseUrl}/c/${token}`,
    status: 'CRIADO',
    ambiente: deps.config.ambiente,
    cpfMascarado: maskCpf(cpf),
    ...(referenciaExterna !== undefined ? { referenciaExterna } : {}),
    ...(urlRetorno !== undefined ? { urlRetorno } : {}),
    expiraEm: addSeconds(now, deps.config.linkTtlSeconds).toISOString(),
    criadoEm: now.toISOString(),
  };

  const row: NewLink = {
    id,
    channel_id: input.channelId,
    ambiente: deps.config.ambiente,
    token_hash: hashLinkToken(deps, token),
    cpf_sealed: deps.keys.seal(cpf),
    cpf_hash: hashCpf(deps, cpf),
    cpf_masked: link.cpfMascarado,
    celular_sealed: celular ? deps.keys.seal(celular) : null,
    referencia_externa: referenciaExterna ?? null,
    return_url: urlRetorno ?? null,
    status: 'CRIADO',
    expira_em: new Date(link.expiraEm),
    criado_em: now,
    aberto_em: null,
    updated_at: now,
    // Its journey, proposal and their webhooks continue the trace of this request.
    trace_context: currentTraceparent(),
  };
  const claim =
    key === undefined
      ? undefined
      : {
          channel_id: input.channelId,
          key,
          fingerprint,
          response_sealed: deps.keys.seal(JSON.stringify(link)),
          created_at: now,
          cutoff,
        };
  const claimed = await insertLinkWithKey(deps.database.db, row, claim);
  if (!claimed && key !== undefined) {
    const replay = await replayOf(deps, input.channelId, key, fingerprint, cutoff);
    if (replay) return replay;
    throw conflict(
      'idempotency_key_em_uso',
      'Outra requisição com esta Idempotency-Key ainda está em andamento. Tente novamente.',
    );
  }
  return { replayed: false, link };
}

async function replayOf(
  deps: Deps,
  channelId: string,
  key: string,
  fingerprint: Buffer,
  cutoff: Date,
): Promise<CreateLinkResult | undefined> {
  const existing = await findIdempotencyKey(deps.database.db, channelId, key, cutoff);
  if (!existing) return undefined;
  if (!constantTimeEqual(Buffer.from(existing.fingerprint), fingerprint)) {
    throw conflict(
      'idempotency_key_conflito',
      'Esta Idempotency-Key já foi usada com outro CPF, outra referenciaExterna ou outra urlRetorno. Use uma nova chave para um novo link.',
    );
  }
  return { replayed: true, link: JSON.parse(deps.keys.open(existing.response_sealed)) as CreatedLink };
}

/**
 * The return URL: where a browser goes, so private and local hosts are fine, but it is
 * https (http only with the development switch), carries no credentials, and is clean
 * text, as sent (no rewriting: it is what the fingerprint and the pages use).
 */
function parseReturnUrl(value: unknown, allowHttp: boolean): string | undefined {
  if (value === undefined) return undefined;
  const refuse = () => badRequest('url_retorno_invalida', messageFor('url_retorno_invalida'));
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || /\s/.test(value) || !isCleanText(value))
    throw refuse();
  if (!URL.canParse(value)) throw refuse();
  const url = new URL(value);
  const protocolOk = url.protocol === 'https:' || (allowHttp && url.protocol === 'http:');
  if (!protocolOk || url.username !== '' || url.password !== '' || url.hostname === '') throw refuse();
  return value;
}

function normalizeReference(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('requisicao_invalida', 'referenciaExterna deve ser texto.');
  const trimmed = value.trim();
  if (trimmed.length > 100 || !isCleanText(trimmed)) {
    throw badRequest('requisicao_invalida', `referenciaExterna inválida: até 100 caracteres, ${CLEAN_TEXT_RULE}.`);
  }
  return trimmed === '' ? undefined : trimmed;
}

export async function getLink(deps: Pick<Context, 'database' | 'clock'>, channelId: string, id: string): Promise<LinkResource> {
  const view: LinkView | undefined = isUuid(id) ? await findLinkView(deps.database.db, channelId, id) : undefined;
  if (!view) throw notFound('Link não encontrado.');
  return toLinkResource(view, deps.clock.now());
}
