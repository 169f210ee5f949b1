#!/usr/bin/env node
// The SDK's command for channel developers:
//   npx @consigna/sdk listen --forward-to http://localhost:4000/webhooks
// Credentials come from the environment: CONSIGNA_URL (default http://localhost:3000),
// CONSIGNA_CLIENT_ID and CONSIGNA_CLIENT_SECRET, the names the docs and examples use.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { Consigna } from './client.ts';
import { forwardLine, listen } from './listen.ts';

const USAGE = `Uso: consigna-sdk listen --forward-to URL [--sim] [--novo-segredo]

Encaminha os webhooks do sandbox para um servidor na sua máquina: o receptor de testes do
canal passa a ser o webhook registrado, e cada evento que ele recebe é enviado por POST à URL
local com os mesmos bytes e cabeçalhos que o serviço assinou (verifique com o segredo do webhook).

  --forward-to URL   para onde encaminhar, por exemplo http://localhost:4000/webhooks
  --sim              troca sem perguntar um webhook registrado com outra URL
  --novo-segredo     gera e mostra um novo segredo do webhook (o anterior vale mais 24 h)

Ambiente: CONSIGNA_URL (padrão http://localhost:3000), CONSIGNA_CLIENT_ID, CONSIGNA_CLIENT_SECRET.
Ctrl-C encerra.`;

/**
 * The names this command read before the CONSIGNA_ ones. A shell that still exports them
 * keeps working, with a warning naming the new variable (test/examples/setting-names.test.ts
 * allows the old names here and nowhere else).
 */
const LEGACY_ENV = { CONSIGNA_CLIENT_ID: 'CLIENT_ID', CONSIGNA_CLIENT_SECRET: 'CLIENT_SECRET' } as const;

function setting(name: keyof typeof LEGACY_ENV): string | undefined {
  if (process.env[name]) return process.env[name];
  const legacy = LEGACY_ENV[name];
  if (!process.env[legacy]) return undefined;
  process.stderr.write(`Aviso: ${legacy} está obsoleta e deixará de ser lida; use ${name}.\n`);
  return process.env[legacy];
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'listen') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === '--help' || command === '-h' ? 0 : 2;
  }
  let values: { 'forward-to'?: string; sim?: boolean; 'novo-segredo'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        'forward-to': { type: 'string' },
        sim: { type: 'boolean' },
        'novo-segredo': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const forwardTo = values['forward-to'];
  if (!forwardTo || !URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) {
    process.stderr.write(`Informe --forward-to com uma URL http(s), por exemplo http://localhost:4000/webhooks.\n\n${USAGE}\n`);
    return 2;
  }
  const clientId = setting('CONSIGNA_CLIENT_ID');
  const clientSecret = setting('CONSIGNA_CLIENT_SECRET');
  if (!clientId || !clientSecret) {
    process.stderr.write('Defina CONSIGNA_CLIENT_ID e CONSIGNA_CLIENT_SECRET (as credenciais do canal no sandbox).\n');
    return 2;
  }
  const baseUrl = (process.env.CONSIGNA_URL || 'http://localhost:3000').replace(/\/+$/, '');

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const say = (line: string) => process.stdout.write(`${line}\n`);

  const consigna = new Consigna({ baseUrl, clientId, clientSecret });
  const listening = await listen({
    consigna,
    forwardTo,
    rotateSecret: values['novo-segredo'] === true,
    signal: stop.signal,
    confirmReplace: async (currentUrl) => {
      if (values.sim) return true;
      if (!process.stdin.isTTY) {
        process.stderr.write(
          `O webhook do canal aponta para ${currentUrl}. Rode de novo com --sim para trocá-lo pelo receptor de testes.\n`,
        );
        return false;
      }
      const prompt = createInterface({ input: process.stdin, output: process.stdout });
      const answer = await prompt.question(
        `O webhook do canal aponta para ${currentUrl}. Trocar pelo receptor de testes? [s/N] `,
      );
      prompt.close();
      return /^s(im)?$/i.test(answer.trim());
    },
    onStatus: say,
    onForward: (result) => say(forwardLine(result)),
  });
  say(`webhook do canal: ${listening.inbox.url}`);
  if (listening.newSecret) say(`segredo do webhook (mostrado só agora; use-o para verificar): ${listening.newSecret}`);
  else say('o segredo do webhook foi mostrado quando ele foi registrado; para um novo, rode com --novo-segredo');
  await listening.done;
  say('encerrado');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
