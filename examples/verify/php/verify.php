<?php
// Verificação da assinatura de um webhook da Consigna em PHP, só com a biblioteca padrão
// (PHP 8 ou mais novo: hash_hmac e hash_equals). Copie `verificar` (e `aparar`) para o seu
// receptor; lá o corpo bruto vem de file_get_contents('php://input'), antes de json_decode.
//
// Linha de comando:
//   php verify.php CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]
//     CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
//     CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97…"
//     SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)
//   Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: o relógio).
//   Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.

declare(strict_types=1);

/**
 * $corpoBruto: os bytes exatamente como chegaram. $segredos: o atual e, durante uma rotação, o anterior.
 * Devolve [true, null] ou [false, motivo].
 */
function verificar(string $corpoBruto, ?string $cabecalho, array $segredos, int $tolerancia = 300, ?int $agora = null): array
{
    if ($cabecalho === null || aparar($cabecalho) === '') {
        return [false, 'cabecalho_ausente'];
    }

    // t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=…) são ignorados.
    $t = null;
    $assinaturas = [];
    foreach (explode(',', $cabecalho) as $item) {
        $i = strpos($item, '=');
        if ($i === false || $i === 0) {
            return [false, 'cabecalho_malformado'];
        }
        $chave = aparar(substr($item, 0, $i));
        $valor = aparar(substr($item, $i + 1));
        if ($chave === 't') {
            if ($t !== null || !preg_match('/^[0-9]{1,12}$/D', $valor)) {
                return [false, 'cabecalho_malformado'];
            }
            $t = $valor;
        } elseif ($chave === 'v1') {
            if (!preg_match('/^[0-9a-f]{64}$/D', $valor)) {
                return [false, 'cabecalho_malformado'];
            }
            $assinaturas[] = hex2bin($valor);
        }
    }
    if ($t === null || count($assinaturas) === 0) {
        return [false, 'cabecalho_malformado'];
    }

    // HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_… incluído) como chave.
    // Todas as combinações são comparadas, sem parar na primeira que confere.
    $confere = false;
    foreach ($segredos as $segredo) {
        $esperado = hash_hmac('sha256', $t . '.' . $corpoBruto, $segredo, true);
        foreach ($assinaturas as $v1) {
            if (hash_equals($esperado, $v1)) {
                $confere = true;
            }
        }
    }
    if (!$confere) {
        return [false, 'assinatura_nao_confere'];
    }
    if (abs(($agora ?? time()) - (int) $t) > $tolerancia) {
        return [false, 'timestamp_fora_da_tolerancia'];
    }
    return [true, null];
}

/** Tira das pontas os mesmos espaços que o trim() do JavaScript (o exemplo em Node é a referência). */
function aparar(string $s): string
{
    static $espacos = [
        "\t", "\n", "\v", "\f", "\r", ' ', "\u{A0}", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}",
        "\u{2004}", "\u{2005}", "\u{2006}", "\u{2007}", "\u{2008}", "\u{2009}", "\u{200A}", "\u{2028}", "\u{2029}",
        "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
    ];
    do {
        $antes = $s;
        foreach ($espacos as $e) {
            if (str_starts_with($s, $e)) {
                $s = substr($s, strlen($e));
            }
            if (str_ends_with($s, $e)) {
                $s = substr($s, 0, -strlen($e));
            }
        }
    } while ($s !== $antes);
    return $s;
}

function main(array $args): int
{
    if (count($args) < 3) {
        fwrite(STDERR, "uso: php verify.php CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]\n");
        return 2;
    }
    [$arquivo, $cabecalho] = $args;
    $segredos = array_slice($args, 2);
    $corpo = $arquivo === '-' ? stream_get_contents(STDIN) : (is_dir($arquivo) ? false : @file_get_contents($arquivo));
    if ($corpo === false) {
        fwrite(STDERR, "não foi possível ler o corpo: $arquivo\n");
        return 2;
    }
    $opcoes = ['TOLERANCIA' => 300, 'AGORA' => null];
    foreach ($opcoes as $variavel => $padrao) {
        $valor = getenv($variavel);
        if ($valor === false || $valor === '') {
            continue;
        }
        if (!preg_match('/^[+-]?[0-9]{1,18}$/D', trim($valor))) {
            fwrite(STDERR, "TOLERANCIA e AGORA são números inteiros de segundos\n");
            return 2;
        }
        $opcoes[$variavel] = (int) trim($valor);
    }
    [$valida, $motivo] = verificar($corpo, $cabecalho, $segredos, $opcoes['TOLERANCIA'], $opcoes['AGORA']);
    if (!$valida) {
        fwrite(STDERR, "assinatura inválida: $motivo\n");
        return 1;
    }
    $evento = '';
    // Corpo assinado que não é JSON: a assinatura ainda assim confere.
    $dados = json_decode($corpo, true, 512, JSON_INVALID_UTF8_SUBSTITUTE);
    if (is_array($dados) && is_string($dados['tipo'] ?? null) && $dados['tipo'] !== '') {
        $id = $dados['id'] ?? null;
        $evento = " (evento {$dados['tipo']}" . (is_string($id) && $id !== '' ? " $id" : '') . ')';
    }
    echo "assinatura válida$evento\n";
    return 0;
}

if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    exit(main(array_slice($argv, 1)));
}
