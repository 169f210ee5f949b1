#!/usr/bin/env node
// Um receptor de webhooks da Consigna: verifica a assinatura de cada entrega com o
// segredo do webhook (SDK @consigna/sdk, createWebhookHandler) e mostra cada evento.
// É o "seu código" do início rápido: rode-o, encaminhe os eventos do sandbox para ele
// com `npx @consigna/sdk listen --forward-to http://localhost:4000/webhooks` e gere
// eventos (node examples/quickstart/quickstart.mjs).
//
//   CONSIGNA_WEBHOOK_SECRET=whsec_… node examples/receiver/receiver.mjs
//
// Opcional: PORTA (padrão 4000); CONSIGNA_WEBHOOK_SECRET_ANTERIOR durante uma rotação.
// Responde 200 a uma entrega verificada, 400/401 a uma que não passa na verificação
// (a Consigna tenta de novo mais tarde) e ignora repetições do mesmo evento (id).
import http from 'node:http';
import { createWebhookHandler } from '@consigna/sdk';

const secret = process.env.CONSIGNA_WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error(
    'Defina CONSIGNA_WEBHOOK_SECRET com o segredo do webhook (whsec_…): o `listen` mostra quando registra o webhook, ou com --novo-segredo.',
  );
  process.exit(2);
}
const secrets = [secret, process.env.CONSIGNA_WEBHOOK_SECRET_ANTERIOR].filter(Boolean);
const port = Number(process.env.PORTA ?? 4000);
const seen = new Set();

const handler = createWebhookHandler({
  secrets,
  onEvent: async (event, delivery) => {
    if (seen.has(event.id)) return; // a mesma entrega de novo: já tratada
    seen.add(event.id);
    const proposta = event.proposta ? ` proposta nº ${event.proposta.numero} (${event.proposta.status})` : '';
    const link = event.link ? ` link ${event.link.id}` : '';
    console.log(`✓ ${event.tipo}${link}${proposta} — assinatura verificada (tentativa ${delivery.attempt ?? '?'})`);
  },
  onError: (error) => console.error('erro ao tratar o evento:', error),
});

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/webhooks') {
    // Mostra também as entregas recusadas: assinatura que não confere, cabeçalho ausente…
    res.on('finish', () => {
      if (res.statusCode >= 400) console.log(`✗ entrega recusada com ${res.statusCode}: assinatura não verificada`);
    });
    return handler(req, res);
  }
  res.writeHead(404).end();
});
server.listen(port, () => console.log(`receptor ouvindo em http://localhost:${port}/webhooks`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
