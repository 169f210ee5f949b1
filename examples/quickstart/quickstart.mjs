#!/usr/bin/env node
// Do zero a uma proposta aprovada, sem navegador, com o SDK (@consigna/sdk): token,
// link de contratação, a jornada do cliente simulada até a proposta e a proposta
// movida pelo simulador. Cada mudança gera um evento assinado para o webhook do canal:
// com `npx @consigna/sdk listen --forward-to http://localhost:4000/webhooks` rodando, eles
// chegam ao seu receptor (examples/receiver) e ele verifica cada um.
//
//   CONSIGNA_URL=http://localhost:3000 CONSIGNA_CLIENT_ID=cid_… CONSIGNA_CLIENT_SECRET=csk_… node examples/quickstart/quickstart.mjs
//
// Opcional: CPF (padrão 12345678909; veja os cenários do sandbox em /docs).
import { randomUUID } from 'node:crypto';
import { Consigna, ConsignaConnectionError, ConsignaError } from '@consigna/sdk';

const baseUrl = process.env.CONSIGNA_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const clientId = process.env.CONSIGNA_CLIENT_ID;
const clientSecret = process.env.CONSIGNA_CLIENT_SECRET;
if (!clientId || !clientSecret) {
  console.error(
    'Defina CONSIGNA_CLIENT_ID e CONSIGNA_CLIENT_SECRET (mostrados uma única vez no primeiro `npm start`, ou criados com `npx consigna channels create --name "Meu canal"`).',
  );
  process.exit(2);
}

const consigna = new Consigna({ baseUrl, clientId, clientSecret });

async function main() {
  // 1. Token: pedido uma vez e reutilizado pelo SDK até perto de expirar.
  const { canal } = await consigna.ping();
  console.log(`1. Token obtido para o canal "${canal.nome}" (${baseUrl}).`);

  // Para onde vão os eventos.
  const webhook = await consigna.getWebhook().catch((error) => {
    if (error instanceof ConsignaError && error.code === 'nao_encontrado') return undefined;
    throw error;
  });
  console.log(
    webhook
      ? `   Os eventos vão para o webhook do canal: ${webhook.url}`
      : '   O canal não tem webhook: rode `npx @consigna/sdk listen --forward-to …` (ou PUT /v1/webhooks) para receber os eventos.',
  );

  // 2. Link de contratação. A chave de idempotência é o id do "pedido": repetir não cria outro link.
  const pedido = `quickstart-${randomUUID()}`;
  const link = await consigna.createLink(
    { cpf: process.env.CPF ?? '12345678909', referenciaExterna: pedido },
    { idempotencyKey: pedido },
  );
  console.log(`2. Link criado: ${link.id} (status ${link.status}).`);

  // 3. A jornada do cliente, sem navegador (somente sandbox): código, consulta, oferta, dados, proposta.
  const jornada = await consigna.simulateJourney(link.id);
  if (!jornada.proposta) {
    console.log(`3. Jornada simulada: link ${jornada.status}, sem proposta (é um CPF de cenário?).`);
    return;
  }
  console.log(`3. Jornada simulada: proposta nº ${jornada.proposta.numero} ${jornada.proposta.status}, link ${jornada.status}.`);

  // 4. O banco formaliza e aprova (simulador do sandbox).
  for (const status of ['FORMALIZADA', 'APROVADA']) await consigna.simulateProposal(link.id, status);
  const final = await consigna.getLink(link.id);
  console.log(`4. Proposta ${final.proposta?.status}.`);
  console.log('5. Eventos gerados: proposta.criada, proposta.aguardando_formalizacao, proposta.formalizada e proposta.aprovada.');
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
