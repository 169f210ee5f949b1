// The OpenAPI 3.1 document is generated from the routes' TypeBox schemas, so the
// contract served at /openapi.yaml cannot drift from the code that validates and
// serializes. The API reference UI is served from local assets (no internet).
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './fastify.ts';
import type { Context } from '../context.ts';

export const API_DESCRIPTION = `
API da **Consigna** para canais de distribuição de crédito consignado privado (CLT).

O canal troca \`client_id\`/\`client_secret\` por um token (\`POST /v1/oauth/token\`), cria um link de
contratação (\`POST /v1/links\`), envia a URL ao cliente e acompanha a proposta por
\`GET /v1/links/{id}\` e por webhooks assinados.

- Erros: corpo \`{ code, message, requestId }\` (mensagens em pt-BR); todo response traz \`X-Request-Id\`.
- O endpoint de token usa o corpo OAuth 2.0 (\`error\`, \`error_description\`, \`requestId\`).
- Datas em ISO 8601 UTC com milissegundos. Campos opcionais sem valor são omitidos.
- Respostas com segredo ou URL de cliente trazem \`Cache-Control: no-store\` (todas as respostas \`/v1\` trazem).
- Banco indisponível em qualquer endpoint: 503 \`db_unavailable\` com \`Retry-After\`.
- Receptor de testes e sua página sob carga alta: 503 \`servico_sobrecarregado\` com \`Retry-After\` (o serviço protege os demais canais).
- Rota desconhecida: 404 \`nao_encontrado\`. Erro inesperado: 500 \`erro_interno\` (sem detalhes internos).
`.trim();

// What JSON Schema cannot say of a request's body: that there is none (`x-sem-corpo`, see
// NO_BODY in schemas.ts), or that it may be left out (`x-corpo-opcional`). @fastify/swagger
// copies a route schema's `x-` keys onto its operation and marks every body it describes
// as required.
const bodyPresence: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const { openapiObject } = document;
  const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (operation['x-sem-corpo']) delete operation.requestBody;
      if (operation['x-corpo-opcional'] && operation.requestBody)
        (operation.requestBody as { required: boolean }).required = false;
      delete operation['x-sem-corpo'];
      delete operation['x-corpo-opcional'];
    }
  }
  return openapiObject;
};

export async function registerOpenApi(app: App, ctx: Context): Promise<void> {
  await app.register(swagger, {
    transformObject: bodyPresence,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Consigna API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        // package.json says UNLICENSED and the repository has no license file: the API is
        // proprietary. OpenAPI 3.1 wants a url or an SPDX identifier beside the name; SPDX
        // has no identifier for a proprietary license, so the url is this instance's /docs.
        license: { name: 'Proprietária (todos os direitos reservados)', url: `${ctx.config.publicBaseUrl}/docs` },
      },
      // The instance itself: its PUBLIC_BASE_URL (docs/openapi.yaml is the local sandbox's).
      servers: [
        {
          url: ctx.config.publicBaseUrl,
          description: `${ctx.config.ambiente === 'SANDBOX' ? 'Sandbox' : 'Produção'}: esta instância da Consigna (PUBLIC_BASE_URL)`,
        },
      ],
      tags: [
        { name: 'Autenticação', description: 'Token de acesso (client credentials).' },
        { name: 'Canal', description: 'Identidade do canal.' },
        { name: 'Links', description: 'Links de contratação e proposta.' },
        { name: 'Marca', description: 'A marca do canal nas páginas que o cliente vê: nome, logo e cor.' },
        { name: 'Eventos', description: 'Os eventos de proposta do canal, para conciliar sem depender só dos webhooks.' },
        {
          name: 'Relatórios',
          description: 'O funil dos links do canal: até onde os clientes chegaram, por dia ou por referência.',
        },
        { name: 'Webhooks', description: 'Registro, segredo, entregas e evento de teste.' },
        {
          name: 'Portal',
          description: 'O portal do canal: links de acesso de uso único para a equipe do canal, e o encerramento das sessões.',
        },
        { name: 'Sandbox', description: 'Simulador de proposta e receptor de testes.' },
        { name: 'Operação', description: 'Saúde e prontidão do serviço.' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Token obtido em POST /v1/oauth/token (prefixo `cat_`, 3600 s).',
          },
          basicAuth: {
            type: 'http',
            scheme: 'basic',
            description: 'client_id:client_secret (recomendado no endpoint de token).',
          },
        },
      },
    },
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs/referencia',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
  });

  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
