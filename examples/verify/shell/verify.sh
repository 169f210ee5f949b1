#!/usr/bin/env bash
# Verificação da assinatura de um webhook da Consigna com bash e openssl.
# Bom para conferir à mão um evento capturado (por exemplo no receptor de testes);
# num receptor de verdade use Node, Python ou outra linguagem com comparação em
# tempo constante (aqui a comparação é de texto, e o segredo passa pela linha de
# comando do openssl, visível em `ps` enquanto ele roda).
#
#   ./verify.sh CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]
#     CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
#     CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97…"
#     SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)
#   Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: date +%s).
#   Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.
set -euo pipefail

if [ "$#" -lt 3 ]; then
  echo "uso: $0 CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]" >&2
  exit 2
fi
corpo=$1
cabecalho=$2
shift 2

invalida() {
  echo "assinatura inválida: $1" >&2
  exit 1
}

if [ "$corpo" = "-" ]; then
  corpo=$(mktemp)
  trap 'rm -f "$corpo"' EXIT
  cat >"$corpo"
fi
[ -r "$corpo" ] || { echo "arquivo não encontrado: $corpo" >&2; exit 2; }

# t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=…) são ignorados.
[ -n "${cabecalho//[[:space:]]/}" ] || invalida cabecalho_ausente
t=""
assinaturas=()
IFS=',' read -r -a itens <<<"$cabecalho"
for item in "${itens[@]}"; do
  [[ "$item" == *=* && "${item%%=*}" != "" ]] || invalida cabecalho_malformado
  chave=$(echo "${item%%=*}" | tr -d '[:space:]')
  valor=$(echo "${item#*=}" | tr -d '[:space:]')
  case "$chave" in
    t)
      [[ -z "$t" && "$valor" =~ ^[0-9]{1,12}$ ]] || invalida cabecalho_malformado
      t=$valor
      ;;
    v1)
      [[ "$valor" =~ ^[0-9a-f]{64}$ ]] || invalida cabecalho_malformado
      assinaturas+=("$valor")
      ;;
  esac
done
[[ -n "$t" && "${#assinaturas[@]}" -gt 0 ]] || invalida cabecalho_malformado

# HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_… incluído) como chave.
# O corpo vai direto do arquivo para o openssl: nenhum byte (nem a quebra de linha final) muda.
confere=0
for segredo in "$@"; do
  esperado=$({ printf '%s.' "$t"; cat "$corpo"; } | openssl dgst -sha256 -hmac "$segredo" | awk '{print $NF}')
  for v1 in "${assinaturas[@]}"; do
    [ "$esperado" = "$v1" ] && confere=1
  done
done
[ "$confere" -eq 1 ] || invalida assinatura_nao_confere

agora=${AGORA:-$(date +%s)}
diferenca=$((agora - t))
[ "${diferenca#-}" -le "${TOLERANCIA:-300}" ] || invalida timestamp_fora_da_tolerancia

echo "assinatura válida"
