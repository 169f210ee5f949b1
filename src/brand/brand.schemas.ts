// The OpenAPI contract of the brand routes (brand.routes.ts).
import { Type } from 'typebox';
import { DateTime, ErrorBody, NoContent, bearerErrors, withHeaders } from '../http/schemas.ts';
import { LOGO_DRAWN_HEIGHT, LOGO_DRAWN_MAX_WIDTH, MAX_LOGO_BYTES, MAX_LOGO_SIDE, MAX_LOGO_TALL, MAX_LOGO_WIDE } from './logo.ts';

const Brand = Type.Object(
  {
    nome: Type.String({ description: 'Como o cliente vê o canal: no topo de cada página e em "Oferecido por…".' }),
    cor: Type.Optional(Type.String({ description: 'A cor enviada, `#rrggbb`.' })),
    corAplicada: Type.String({
      description:
        'A cor que as páginas usam: a enviada, ou ela escurecida (mesmo matiz) até o texto branco sobre ela e ela sobre fundo ' +
        'claro terem contraste de pelo menos 4,5:1 (WCAG 2.1 AA). Sem `cor`, a cor padrão.',
    }),
    logo: Type.Optional(
      Type.Object(
        {
          url: Type.String({ description: 'Servido por nós (as páginas não carregam nada de fora).' }),
          tipo: Type.String({ enum: ['image/png', 'image/jpeg', 'image/webp'] }),
          largura: Type.Integer(),
          altura: Type.Integer(),
          bytes: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
    atualizadoEm: DateTime(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        nome: 'Fintech Exemplo',
        cor: '#1a73e8',
        corAplicada: '#1a6dde',
        logo: {
          url: 'https://sandbox.consigna.example/marca/logo/9f2c…',
          tipo: 'image/png',
          largura: 120,
          altura: 32,
          bytes: 2841,
        },
        atualizadoEm: '2026-11-22T14:03:23.123Z',
      },
    ],
  },
);

const noBrand = ErrorBody(['nao_encontrado'], 'Nenhuma marca definida: as páginas usam o nome do canal.');

/** PUT /v1/marca */
export const putBrandSchema = {
  tags: ['Marca'],
  summary: 'Definir a marca do canal',
  operationId: 'definirMarca',
  description:
    'O nome, o logo e a cor que o cliente vê em todas as páginas da contratação, inclusive as finais e a de assinatura. ' +
    'Substitui a marca inteira (um campo ausente volta ao padrão). Criação: 201; atualização: 200. Tudo é validado antes ' +
    'de gravar: um campo inválido deixa a marca como estava.',
  security: [{ bearerAuth: [] }],
  body: Type.Object(
    {
      nome: Type.String({
        description:
          'De 1 a 60 caracteres, com ao menos uma letra ou um dígito visível (só espaços ou caracteres invisíveis, ' +
          'como U+2800 ou U+3164, não nomeiam ninguém), sem caracteres de controle. Sempre escapado nas páginas.',
      }),
      cor: Type.Optional(
        Type.String({ description: '`#rrggbb`. Escurecida nas páginas se não for legível (veja `corAplicada`).' }),
      ),
      logo: Type.Optional(
        Type.String({
          description:
            `Os bytes de uma imagem PNG, JPEG ou WebP, em base64: até ${MAX_LOGO_BYTES} bytes (16 KB) e ` +
            `${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels. O tipo é lido da imagem; SVG não é aceito. A imagem é lida até o ` +
            'último byte e decodificada por inteiro: `logo_invalido` (com o motivo) se tiver mais de um cabeçalho de imagem ' +
            'ou animação, tamanho declarado diferente do real, qualquer byte depois do fim da imagem, dados corrompidos, ' +
            `rotação EXIF, ou proporção fora de 1:${MAX_LOGO_TALL} a ${MAX_LOGO_WIDE}:1. Guardado como enviado. Aparece com ` +
            `${LOGO_DRAWN_HEIGHT} pixels de altura e no máximo ${LOGO_DRAWN_MAX_WIDTH} de largura.`,
        }),
      ),
    },
    { additionalProperties: false, examples: [{ nome: 'Fintech Exemplo', cor: '#1a73e8', logo: 'iVBORw0KGgoAAAANSUhEUgAA…' }] },
  ),
  response: {
    201: withHeaders(Brand, {}, 'Marca criada.'),
    200: withHeaders(Brand, {}, 'Marca substituída.'),
    400: ErrorBody(
      ['nome_invalido', 'cor_invalida', 'logo_invalido', 'logo_muito_grande', 'requisicao_invalida'],
      'Campo inválido (o `code` diz qual); nada foi gravado.',
    ),
    ...bearerErrors(),
  },
};

/** GET /v1/marca */
export const getBrandSchema = {
  tags: ['Marca'],
  summary: 'Consultar a marca do canal',
  operationId: 'consultarMarca',
  description: 'A marca definida, com a cor que as páginas aplicam e a URL do logo.',
  security: [{ bearerAuth: [] }],
  response: { 200: withHeaders(Brand, {}, 'A marca do canal.'), 404: noBrand, ...bearerErrors() },
};

/** DELETE /v1/marca */
export const deleteBrandSchema = {
  tags: ['Marca'],
  summary: 'Remover a marca do canal',
  operationId: 'removerMarca',
  description: 'As páginas voltam a mostrar o nome do canal com as cores padrão. 204 sem corpo.',
  security: [{ bearerAuth: [] }],
  response: { 204: NoContent('Removida.'), 404: noBrand, ...bearerErrors() },
};
