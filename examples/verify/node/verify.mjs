#!/usr/bin/env node
// Verificação da assinatura de um webhook da Consigna em Node.js, só com node:crypto
// (Node 18 ou mais novo). Copie `verificar` para o seu receptor, ou use o SDK
// (@consigna/sdk: verifyWebhook e createWebhookHandler), que faz o mesmo.
//
// Linha de comando:
//   node verify.mjs CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]
//     CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
//     CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97…"
//     SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)
//   Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: o relógio).
//   Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * corpoBruto: Buffer ou string exatamente como recebido (antes de JSON.parse).
 * Devolve { valida: true } ou { valida: false, motivo }.
 */
export function verificar(corpoBruto, cabecalho, segredos, { tolerancia = 300, agora = Math.floor(Date.now() / 1000) } = {}) {
  if (!cabecalho || !cabecalho.trim()) return { valida: false, motivo: 'cabecalho_ausente' };

  // t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=…) são ignorados.
  let t;
  const assinaturas = [];
  for (const item of cabecalho.split(',')) {
    const i = item.indexOf('=');
    if (i <= 0) return { valida: false, motivo: 'cabecalho_malformado' };
    const chave = item.slice(0, i).trim();
    const valor = item.slice(i + 1).trim();
    if (chave === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(valor)) return { valida: false, motivo: 'cabecalho_malformado' };
      t = valor;
    } else if (chave === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(valor)) return { valida: false, motivo: 'cabecalho_malformado' };
      assinaturas.push(Buffer.from(valor, 'hex'));
    }
  }
  if (t === undefined || assinaturas.length === 0) return { valida: false, motivo: 'cabecalho_malformado' };

  // HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_… incluído) como chave.
  const corpo = Buffer.isBuffer(corpoBruto) ? corpoBruto : Buffer.from(corpoBruto, 'utf8');
  let confere = false;
  for (const segredo of segredos) {
    const esperado = createHmac('sha256', segredo).update(`${t}.`).update(corpo).digest();
    for (const v1 of assinaturas) if (timingSafeEqual(esperado, v1)) confere = true;
  }
  if (!confere) return { valida: false, motivo: 'assinatura_nao_confere' };
  if (Math.abs(agora - Number(t)) > tolerancia) return { valida: false, motivo: 'timestamp_fora_da_tolerancia' };
  return { valida: true };
}

function main(args) {
  if (args.length < 3) {
    console.error('uso: node verify.mjs CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]');
    return 2;
  }
  const [arquivo, cabecalho, ...segredos] = args;
  const corpo = fs.readFileSync(arquivo === '-' ? 0 : arquivo);
  const opcoes = {};
  if (process.env.TOLERANCIA) opcoes.tolerancia = Number(process.env.TOLERANCIA);
  if (process.env.AGORA) opcoes.agora = Number(process.env.AGORA);
  const resultado = verificar(corpo, cabecalho, segredos, opcoes);
  if (!resultado.valida) {
    console.error(`assinatura inválida: ${resultado.motivo}`);
    return 1;
  }
  let evento = '';
  try {
    const { tipo, id } = JSON.parse(corpo.toString('utf8'));
    if (tipo) evento = ` (evento ${tipo}${id ? ` ${id}` : ''})`;
  } catch {
    // Corpo assinado que não é JSON: a assinatura ainda assim confere.
  }
  console.log(`assinatura válida${evento}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
