// Verificação da assinatura de um webhook da Consigna em Go, só com a biblioteca padrão
// (Go 1.18 ou mais novo: crypto/hmac, crypto/sha256 e hmac.Equal). Copie `verificar`
// (e `aparar`) para o seu receptor; lá o corpo bruto vem de io.ReadAll(r.Body), antes de
// json.Unmarshal.
//
// Linha de comando:
//   go run verify.go CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]
//     CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
//     CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97…"
//     SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)
//   Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: o relógio).
//   Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.
//   O `go run` sai com 1 para qualquer saída diferente de 0 (e escreve "exit status N"); num
//   script que precisa distinguir 1 de 2, compile antes: go build -o verify verify.go

package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

var (
	padraoT  = regexp.MustCompile(`^[0-9]{1,12}$`)
	padraoV1 = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// verificar devolve (true, "") ou (false, motivo). corpoBruto: os bytes exatamente como
// chegaram. segredos: o atual e, durante uma rotação, o anterior. tolerancia: 300; agora:
// time.Now().Unix().
func verificar(corpoBruto []byte, cabecalho string, segredos []string, tolerancia, agora int64) (bool, string) {
	if aparar(cabecalho) == "" {
		return false, "cabecalho_ausente"
	}

	// t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=…) são ignorados.
	t := ""
	var assinaturas [][]byte
	for _, item := range strings.Split(cabecalho, ",") {
		i := strings.IndexByte(item, '=')
		if i <= 0 {
			return false, "cabecalho_malformado"
		}
		chave, valor := aparar(item[:i]), aparar(item[i+1:])
		switch chave {
		case "t":
			if t != "" || !padraoT.MatchString(valor) {
				return false, "cabecalho_malformado"
			}
			t = valor
		case "v1":
			if !padraoV1.MatchString(valor) {
				return false, "cabecalho_malformado"
			}
			v1, _ := hex.DecodeString(valor)
			assinaturas = append(assinaturas, v1)
		}
	}
	if t == "" || len(assinaturas) == 0 {
		return false, "cabecalho_malformado"
	}

	// HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_… incluído) como chave.
	// Todas as combinações são comparadas, sem parar na primeira que confere.
	confere := false
	for _, segredo := range segredos {
		mac := hmac.New(sha256.New, []byte(segredo))
		mac.Write([]byte(t + "."))
		mac.Write(corpoBruto)
		esperado := mac.Sum(nil)
		for _, v1 := range assinaturas {
			if hmac.Equal(esperado, v1) {
				confere = true
			}
		}
	}
	if !confere {
		return false, "assinatura_nao_confere"
	}
	segundos, _ := strconv.ParseInt(t, 10, 64)
	diferenca := agora - segundos
	if diferenca < 0 {
		diferenca = -diferenca
	}
	if diferenca > tolerancia {
		return false, "timestamp_fora_da_tolerancia"
	}
	return true, ""
}

// aparar tira das pontas os mesmos espaços que o trim() do JavaScript (o exemplo em Node é
// a referência).
func aparar(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return (r >= '\t' && r <= '\r') || r == '\uFEFF' || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Zs, r)
	})
}

func executar(args []string) int {
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "uso: go run verify.go CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]")
		return 2
	}
	arquivo, cabecalho, segredos := args[0], args[1], args[2:]
	var corpo []byte
	var err error
	if arquivo == "-" {
		corpo, err = io.ReadAll(os.Stdin)
	} else {
		corpo, err = os.ReadFile(arquivo)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "não foi possível ler o corpo:", arquivo)
		return 2
	}
	tolerancia, agora := int64(300), time.Now().Unix()
	for variavel, destino := range map[string]*int64{"TOLERANCIA": &tolerancia, "AGORA": &agora} {
		if valor := os.Getenv(variavel); valor != "" {
			if *destino, err = strconv.ParseInt(strings.TrimSpace(valor), 10, 64); err != nil {
				fmt.Fprintln(os.Stderr, "TOLERANCIA e AGORA são números inteiros de segundos")
				return 2
			}
		}
	}
	if valida, motivo := verificar(corpo, cabecalho, segredos, tolerancia, agora); !valida {
		fmt.Fprintln(os.Stderr, "assinatura inválida: "+motivo)
		return 1
	}
	evento := ""
	// Corpo assinado que não é JSON: a assinatura ainda assim confere.
	var dados map[string]any
	if json.Unmarshal(corpo, &dados) == nil {
		if tipo, _ := dados["tipo"].(string); tipo != "" {
			evento = " (evento " + tipo
			if id, _ := dados["id"].(string); id != "" {
				evento += " " + id
			}
			evento += ")"
		}
	}
	fmt.Println("assinatura válida" + evento)
	return 0
}

func main() {
	os.Exit(executar(os.Args[1:]))
}
