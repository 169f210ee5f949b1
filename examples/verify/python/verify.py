#!/usr/bin/env python3
"""Verificação da assinatura de um webhook da Consigna em Python (só biblioteca padrão, 3.8+).

Copie `verificar` para o seu receptor. Linha de comando:

    python3 verify.py CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]

    CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
    CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97..."
    SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)

Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: o relógio).
Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.
"""
import hashlib
import hmac
import json
import os
import re
import sys
import time

_T = re.compile(r"^\d{1,12}$")
_V1 = re.compile(r"^[0-9a-f]{64}$")


def verificar(corpo_bruto: bytes, cabecalho: str, segredos: list, tolerancia: int = 300, agora: int = None):
    """Devolve (True, None) ou (False, motivo). corpo_bruto: os bytes como chegaram, antes de json.loads."""
    if not cabecalho or not cabecalho.strip():
        return False, "cabecalho_ausente"

    # t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=...) são ignorados.
    t = None
    assinaturas = []
    for item in cabecalho.split(","):
        chave, igual, valor = item.partition("=")
        chave, valor = chave.strip(), valor.strip()
        if not igual or not chave:
            return False, "cabecalho_malformado"
        if chave == "t":
            if t is not None or not _T.match(valor):
                return False, "cabecalho_malformado"
            t = valor
        elif chave == "v1":
            if not _V1.match(valor):
                return False, "cabecalho_malformado"
            assinaturas.append(valor)
    if t is None or not assinaturas:
        return False, "cabecalho_malformado"

    # HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_... incluído) como chave.
    mensagem = t.encode("ascii") + b"." + corpo_bruto
    confere = False
    for segredo in segredos:
        esperado = hmac.new(segredo.encode("utf-8"), mensagem, hashlib.sha256).hexdigest()
        for v1 in assinaturas:
            if hmac.compare_digest(esperado, v1):
                confere = True
    if not confere:
        return False, "assinatura_nao_confere"
    agora = int(time.time()) if agora is None else agora
    if abs(agora - int(t)) > tolerancia:
        return False, "timestamp_fora_da_tolerancia"
    return True, None


def main(args):
    if len(args) < 3:
        print("uso: python3 verify.py CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]", file=sys.stderr)
        return 2
    arquivo, cabecalho, segredos = args[0], args[1], args[2:]
    if arquivo == "-":
        corpo = sys.stdin.buffer.read()
    else:
        with open(arquivo, "rb") as f:
            corpo = f.read()
    opcoes = {}
    if os.environ.get("TOLERANCIA"):
        opcoes["tolerancia"] = int(os.environ["TOLERANCIA"])
    if os.environ.get("AGORA"):
        opcoes["agora"] = int(os.environ["AGORA"])
    valida, motivo = verificar(corpo, cabecalho, segredos, **opcoes)
    if not valida:
        print(f"assinatura inválida: {motivo}", file=sys.stderr)
        return 1
    evento = ""
    try:
        dados = json.loads(corpo.decode("utf-8"))
        if dados.get("tipo"):
            evento = f" (evento {dados['tipo']}" + (f" {dados['id']}" if dados.get("id") else "") + ")"
    except (ValueError, AttributeError, TypeError):
        pass  # corpo assinado que não é JSON: a assinatura ainda assim confere
    print(f"assinatura válida{evento}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
