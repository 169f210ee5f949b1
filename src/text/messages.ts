// pt-BR messages for the field codes that both a schema violation and a service's own
// check can produce (the same code always reads the same). Other domain code builds its
// own messages; these cover what the HTTP layer detects before a handler runs.
import { CLEAN_TEXT_RULE, VISIBLE_TEXT_RULE } from './unicode.ts';

export const FIELD_MESSAGES: Record<string, string> = {
  cpf_invalido: 'CPF inválido: informe 11 dígitos, somente números, com dígitos verificadores válidos.',
  celular_invalido: 'Celular inválido: informe DDD válido + 9 dígitos começando por 9, somente números (ex.: 11987654321).',
  idempotency_key_invalida: 'Idempotency-Key inválida: use de 8 a 100 caracteres entre letras, dígitos e _ . : -',
  status_invalido: 'Status inválido.',
  limite_invalido: 'Parâmetro limite inválido: informe um inteiro de 1 a 100.',
  url_invalida: 'URL inválida.',
  eventos_invalidos: 'Lista de eventos inválida.',
  cursor_invalido: 'Cursor inválido: use o proximoCursor devolvido pela página anterior.',
  tipo_invalido: 'Parâmetro tipo inválido: use um dos tipos proposta.* (proposta.criada, proposta.aprovada…).',
  evento_id_invalido: 'Parâmetro eventoId inválido: informe o id (uuid) de um evento.',
  link_id_invalido: 'Parâmetro linkId inválido: informe o id (uuid) de um link.',
  desde_invalido: 'Parâmetro desde inválido: use data e hora ISO 8601 com fuso, por exemplo 2026-11-22T14:00:00Z.',
  ate_invalido: 'Parâmetro ate inválido: use data e hora ISO 8601 com fuso, por exemplo 2026-11-22T15:00:00Z.',
  entregue_invalido: 'Parâmetro entregue inválido: use true ou false.',
  proposta_status_invalido:
    'Parâmetro propostaStatus inválido: use CRIADA, AGUARDANDO_FORMALIZACAO, FORMALIZADA, APROVADA, RECUSADA ou CANCELADA.',
  referencia_externa_invalida: `Parâmetro referenciaExterna inválido: de 1 a 100 caracteres, ${CLEAN_TEXT_RULE}.`,
  de_invalido: 'Parâmetro de inválido: informe um dia AAAA-MM-DD, por exemplo 2026-11-01.',
  agrupar_por_invalido: 'Parâmetro agruparPor inválido: use dia ou referenciaExterna.',
  nome_invalido: `nome inválido: de 1 a 60 caracteres, ${VISIBLE_TEXT_RULE}, ${CLEAN_TEXT_RULE}.`,
  cor_invalida: 'cor inválida: use #RRGGBB, por exemplo #1A73E8.',
  logo_invalido: 'logo inválido: envie os bytes de uma imagem PNG, JPEG ou WebP em base64.',
  url_retorno_invalida: `urlRetorno inválida: https, sem usuário e senha, até 2.048 caracteres, ${CLEAN_TEXT_RULE}.`,
  permissoes_invalidas: 'permissoes inválidas: use ["leitura"] (somente leitura) ou ["leitura", "escrita"].',
  requisicao_invalida: 'Requisição inválida.',
};

export function messageFor(code: string): string {
  return FIELD_MESSAGES[code] ?? FIELD_MESSAGES.requisicao_invalida!;
}
