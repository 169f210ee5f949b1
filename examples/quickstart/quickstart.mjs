#!/usr/bin/env node
// Do zero a um evento assinado no receptor de testes, com o SDK (@consigna/sdk):
// token, link de contratação, receptor de testes registrado como webhook, evento de
// teste e a página onde ele aparece com a assinatura verificada.
//
//   CONSIGNA_URL=http://localhost:3000 CLIENT_ID=cid_… CLIENT_SECRET=csk_… node examples/quickstart/quickstart.mjs
//
// Opcional: CPF (padrão 12345678909; veja os cenários do sandbox em /docs).
// Atenção: registra o receptor de testes como o webhook do canal (substitui a URL anterior).
import { randomUUID } from 'node:crypto';
import { Consigna, ConsignaConnectionError, ConsignaError } from '@consigna/sdk';

const baseUrl = process.env.CONSIGNA_URL ?? 'http://localhost:3000';
const { CLIENT_ID: clientId, CLIENT_SECRET: clientSecret } = process.env;
if (!clientId || !clientSecret) {
  console.error(
    'Defina CLIENT_ID e CLIENT_SECRET (mostrados uma única vez no primeiro `npm start`, ou criados com `npx consigna channels create --name "Meu canal"`).',
  );
  process.exit(2);
}

const consigna = new Consigna({ baseUrl, clientId, clientSecret });

async function main() {
  // 1. Token: pedido uma vez e reutilizado pelo SDK até perto de expirar.
  await consigna.getAccessToken();
  const { canal } = await consigna.ping();
  console.log(`1. Token obtido para o canal "${canal.nome}" (${baseUrl}).`);

  // 2. Link de contratação. A chave de idempotência é o id do "pedido": repetir não cria outro link.
  const pedido = `quickstart-${randomUUID()}`;
  const link = await consigna.createLink(
    { cpf: process.env.CPF ?? '12345678909', referenciaExterna: pedido },
    { idempotencyKey: pedido },
  );
  console.log(`2. Link criado: ${link.id} (status ${link.status}, expira em ${link.expiraEm}).`);
  console.log(`   URL para o cliente (envie só a ele): ${link.url}`);

  // 3. Receptor de testes como webhook do canal.
  const receptor = await consigna.ensureInbox();
  const anterior = await consigna.getWebhook().catch((error) => {
    if (error instanceof ConsignaError && error.code === 'nao_encontrado') return undefined;
    throw error;
  });
  const webhook = await consigna.putWebhook({ url: receptor.url });
  if (anterior && anterior.url !== receptor.url) console.log(`   (o webhook do canal apontava para ${anterior.url})`);
  console.log(
    webhook.segredo
      ? '3. Receptor de testes registrado como webhook (segredo criado agora; o receptor já o conhece).'
      : '3. Receptor de testes registrado como webhook.',
  );

  // 4. Evento de teste assinado, entregue na hora.
  const teste = await consigna.sendTestEvent();
  if (!teste.entregue)
    throw new Error(`o receptor não confirmou o evento de teste: HTTP ${teste.httpStatus ?? '-'} ${teste.erro ?? ''}`);
  const [evento] = (await consigna.listInboxEvents(receptor)).eventos;
  const assinatura =
    evento?.assinaturaValida === true ? 'assinatura válida' : `assinatura NÃO verificada (${evento?.motivo ?? 'inválida'})`;
  console.log(`4. Evento de teste entregue em ${teste.latenciaMs} ms: ${evento?.tipo ?? '?'}, ${assinatura}.`);

  // 5. Onde ver.
  console.log(`5. Veja o evento no navegador: ${receptor.visualizacaoUrl}`);
  if (evento?.assinaturaValida !== true) process.exitCode = 1;
}

main().catch((error) => {
  if (error instanceof ConsignaError) {
    console.error(`Erro ${error.status} ${error.code}: ${error.message} (requestId ${error.requestId ?? '-'})`);
  } else if (error instanceof ConsignaConnectionError) {
    console.error(`Sem resposta de ${baseUrl}: ${error.message}. O serviço está rodando (npm start)?`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
