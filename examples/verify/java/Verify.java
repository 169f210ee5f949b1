// Verificação da assinatura de um webhook da Consigna em Java, só com a biblioteca padrão
// (Java 11 ou mais novo: javax.crypto.Mac e MessageDigest.isEqual). Copie para o seu
// receptor a primeira parte da classe, de `Resultado` até `aparar`; o resto é a linha de comando.
//
// Linha de comando (Java 11+ roda o arquivo-fonte direto, sem compilar antes):
//   java Verify.java CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]
//     CORPO      arquivo com o corpo bruto, byte a byte como chegou ("-" lê da entrada padrão)
//     CABECALHO  valor de X-Service-Signature, por exemplo "t=1795360000,v1=5e97…"
//     SEGREDO    o segredo do webhook inteiro, com o prefixo whsec_ (dois durante a rotação)
//   Variáveis opcionais: TOLERANCIA (segundos, padrão 300) e AGORA (unix, padrão: o relógio).
//   Saída 0: assinatura válida; 1: inválida (o motivo vai para a saída de erro); 2: uso errado.
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Verify {
  /** valida, ou não com um motivo: cabecalho_ausente, cabecalho_malformado, assinatura_nao_confere, timestamp_fora_da_tolerancia. */
  public static final class Resultado {
    public final boolean valida;
    public final String motivo;

    private Resultado(boolean valida, String motivo) {
      this.valida = valida;
      this.motivo = motivo;
    }

    static Resultado invalida(String motivo) {
      return new Resultado(false, motivo);
    }
  }

  private static final Pattern T = Pattern.compile("[0-9]{1,12}");
  private static final Pattern V1 = Pattern.compile("[0-9a-f]{64}");

  /**
   * corpoBruto: os bytes exatamente como chegaram (antes de qualquer parser de JSON).
   * segredos: o segredo atual e, durante uma rotação, o anterior. Tolerância de 5 minutos.
   */
  public static Resultado verificar(byte[] corpoBruto, String cabecalho, List<String> segredos) {
    return verificar(corpoBruto, cabecalho, segredos, 300, System.currentTimeMillis() / 1000);
  }

  /** tolerancia: em segundos; agora: unix em segundos. */
  public static Resultado verificar(byte[] corpoBruto, String cabecalho, List<String> segredos, long tolerancia, long agora) {
    if (cabecalho == null || aparar(cabecalho).isEmpty()) return Resultado.invalida("cabecalho_ausente");

    // t=<unix> uma única vez; um ou mais v1=<64 hex>; outros esquemas (v0=…) são ignorados.
    String t = null;
    List<byte[]> assinaturas = new ArrayList<>();
    for (String item : cabecalho.split(",", -1)) {
      int i = item.indexOf('=');
      if (i <= 0) return Resultado.invalida("cabecalho_malformado");
      String chave = aparar(item.substring(0, i));
      String valor = aparar(item.substring(i + 1));
      if (chave.equals("t")) {
        if (t != null || !T.matcher(valor).matches()) return Resultado.invalida("cabecalho_malformado");
        t = valor;
      } else if (chave.equals("v1")) {
        if (!V1.matcher(valor).matches()) return Resultado.invalida("cabecalho_malformado");
        byte[] bytes = new byte[32];
        for (int k = 0; k < 32; k++) bytes[k] = (byte) Integer.parseInt(valor.substring(2 * k, 2 * k + 2), 16);
        assinaturas.add(bytes);
      }
    }
    if (t == null || assinaturas.isEmpty()) return Resultado.invalida("cabecalho_malformado");

    // HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo inteiro (whsec_… incluído) como chave.
    // Todas as combinações são comparadas, sem parar na primeira que confere.
    boolean confere = false;
    try {
      for (String segredo : segredos) {
        byte[] chave = segredo.getBytes(StandardCharsets.UTF_8);
        // SecretKeySpec recusa chave vazia; para o HMAC, um byte zero é a mesma chave.
        if (chave.length == 0) chave = new byte[1];
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(chave, "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
        byte[] esperado = mac.doFinal(corpoBruto);
        for (byte[] v1 : assinaturas) if (MessageDigest.isEqual(esperado, v1)) confere = true;
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 indispon\u00edvel", e); // não acontece: todo Java tem
    }
    if (!confere) return Resultado.invalida("assinatura_nao_confere");
    if (Math.abs(agora - Long.parseLong(t)) > tolerancia) return Resultado.invalida("timestamp_fora_da_tolerancia");
    return new Resultado(true, null);
  }

  /** Espaço em branco como o trim() do JavaScript (o exemplo em Node é a referência). */
  static boolean ehEspaco(char c) {
    return (c >= '\t' && c <= '\r') || c == '\uFEFF' || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.SPACE_SEPARATOR;
  }

  static String aparar(String s) {
    int inicio = 0;
    int fim = s.length();
    while (inicio < fim && ehEspaco(s.charAt(inicio))) inicio++;
    while (fim > inicio && ehEspaco(s.charAt(fim - 1))) fim--;
    return s.substring(inicio, fim);
  }

  // As mensagens saem em UTF-8 qualquer que seja a codificação padrão da JVM; nos textos, os
  // acentos vão como escapes Unicode, e a saída é a mesma em qualquer codificação do sistema.
  private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
  private static final PrintStream ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

  static int executar(String[] args) {
    if (args.length < 3) {
      ERR.println("uso: java Verify.java CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]");
      return 2;
    }
    byte[] corpo;
    try {
      corpo = args[0].equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Paths.get(args[0]));
    } catch (IOException | RuntimeException e) {
      ERR.println("n\u00e3o foi poss\u00edvel ler o corpo: " + args[0]);
      return 2;
    }
    long tolerancia = 300;
    long agora = System.currentTimeMillis() / 1000;
    try {
      String valor = System.getenv("TOLERANCIA");
      if (valor != null && !valor.isEmpty()) tolerancia = Long.parseLong(valor.trim());
      valor = System.getenv("AGORA");
      if (valor != null && !valor.isEmpty()) agora = Long.parseLong(valor.trim());
    } catch (NumberFormatException e) {
      ERR.println("TOLERANCIA e AGORA s\u00e3o n\u00fameros inteiros de segundos");
      return 2;
    }
    List<String> segredos = List.of(args).subList(2, args.length);
    Resultado resultado = verificar(corpo, args[1], segredos, tolerancia, agora);
    if (!resultado.valida) {
      ERR.println("assinatura inv\u00e1lida: " + resultado.motivo);
      return 1;
    }
    String evento = "";
    Map<String, String> campos = camposDeTexto(new String(corpo, StandardCharsets.UTF_8));
    if (campos != null && !campos.getOrDefault("tipo", "").isEmpty()) {
      String id = campos.getOrDefault("id", "");
      evento = " (evento " + campos.get("tipo") + (id.isEmpty() ? "" : " " + id) + ")";
    }
    OUT.println("assinatura v\u00e1lida" + evento);
    return 0;
  }

  public static void main(String[] args) {
    System.exit(executar(args));
  }

  // Só para a mensagem de saída: a biblioteca padrão do Java não lê JSON (no receptor, use a
  // sua: Jackson, Gson…). Devolve os campos de texto do objeto de fora, ou null se o corpo não
  // for um objeto JSON válido (um corpo assinado que não é JSON ainda assim confere).
  static Map<String, String> camposDeTexto(String json) {
    Map<String, String> campos = new HashMap<>();
    int[] pos = {0};
    try {
      espacos(json, pos);
      if (pos[0] >= json.length() || json.charAt(pos[0]) != '{') return null;
      valorJson(json, pos, campos);
      espacos(json, pos);
      return pos[0] == json.length() ? campos : null;
    } catch (IllegalArgumentException | IndexOutOfBoundsException | StackOverflowError e) {
      return null;
    }
  }

  private static void espacos(String s, int[] pos) {
    while (pos[0] < s.length() && " \t\n\r".indexOf(s.charAt(pos[0])) >= 0) pos[0]++;
  }

  private static void esperar(String s, int[] pos, String texto) {
    if (!s.startsWith(texto, pos[0])) throw new IllegalArgumentException();
    pos[0] += texto.length();
  }

  /** Lê um valor; se for um objeto e `campos` não for null, guarda nele os membros de texto. */
  private static Object valorJson(String s, int[] pos, Map<String, String> campos) {
    espacos(s, pos);
    char c = s.charAt(pos[0]);
    if (c == '{' || c == '[') {
      char fecha = c == '{' ? '}' : ']';
      pos[0]++;
      espacos(s, pos);
      if (s.charAt(pos[0]) == fecha) {
        pos[0]++;
        return null;
      }
      while (true) {
        if (c == '{') {
          espacos(s, pos);
          String chave = textoJson(s, pos);
          espacos(s, pos);
          esperar(s, pos, ":");
          Object valor = valorJson(s, pos, null);
          if (campos != null) {
            if (valor instanceof String) campos.put(chave, (String) valor);
            else campos.remove(chave);
          }
        } else {
          valorJson(s, pos, null);
        }
        espacos(s, pos);
        char proximo = s.charAt(pos[0]++);
        if (proximo == fecha) return null;
        if (proximo != ',') throw new IllegalArgumentException();
      }
    }
    if (c == '"') return textoJson(s, pos);
    for (String literal : new String[] {"true", "false", "null"}) {
      if (s.startsWith(literal, pos[0])) {
        pos[0] += literal.length();
        return null;
      }
    }
    Matcher numero = NUMERO.matcher(s);
    if (!numero.region(pos[0], s.length()).lookingAt()) throw new IllegalArgumentException();
    pos[0] = numero.end();
    return null;
  }

  private static final Pattern NUMERO = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private static String textoJson(String s, int[] pos) {
    esperar(s, pos, "\"");
    StringBuilder texto = new StringBuilder();
    while (true) {
      char c = s.charAt(pos[0]++);
      if (c == '"') return texto.toString();
      if (c < 0x20) throw new IllegalArgumentException();
      if (c != '\\') {
        texto.append(c);
        continue;
      }
      char e = s.charAt(pos[0]++);
      int i = "\"\\/bfnrt".indexOf(e);
      if (i >= 0) texto.append("\"\\/\b\f\n\r\t".charAt(i));
      else if (e == 'u' && s.substring(pos[0], pos[0] + 4).matches("[0-9a-fA-F]{4}")) {
        texto.append((char) Integer.parseInt(s.substring(pos[0], pos[0] + 4), 16));
        pos[0] += 4;
      } else throw new IllegalArgumentException();
    }
  }
}
