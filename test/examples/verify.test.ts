// The six signature verifiers of examples/verify (Node, Python standard library,
// bash + openssl, Java, PHP and Go standard libraries), run as a channel would run them,
// as child processes: against the shared vectors, against each way a delivery can be
// wrong, and against deliveries captured from a real service (test event and a proposal
// event, before and during a secret rotation).
//
// Java, PHP and Go need their toolchains. In CI (process.env.CI, set by .ci/run, which
// installs them) a missing one fails the file; elsewhere its language is left out with a
// warning that says what to install.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Consigna } from '../../packages/sdk/src/index.ts';
import { signatureHeader } from '../../src/webhooks/signature.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { malformedHeaders, signatureVectors } from '../vectors/signatures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLES = path.join(ROOT, 'examples/verify');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-verify-'));
const BUILD = path.join(dir, 'build');

// Each is a command line without its arguments. `java Verify.java` and `go run verify.go`
// compile on every run (seconds each), so the Java and Go examples are compiled once in
// beforeAll and their documented command lines are run once on their own, at the end.
const VERIFIERS = {
  node: [process.execPath, path.join(EXAMPLES, 'node/verify.mjs')],
  python: ['python3', path.join(EXAMPLES, 'python/verify.py')],
  shell: ['bash', path.join(EXAMPLES, 'shell/verify.sh')],
  java: ['java', '-cp', BUILD, 'Verify'],
  php: ['php', path.join(EXAMPLES, 'php/verify.php')],
  go: [path.join(BUILD, 'verify-go')],
} as const;
type Language = keyof typeof VERIFIERS;

/** What the Java, PHP and Go examples need; .ci/run installs these Debian packages. */
const TOOLCHAINS = {
  java: { commands: ['java', 'javac'], needs: 'a JDK 11 or newer, java and javac (apt-get install default-jdk-headless)' },
  php: { commands: ['php'], needs: 'php 8 or newer (apt-get install php-cli)' },
  go: { commands: ['go'], needs: 'go 1.18 or newer (apt-get install golang-go)' },
} as const;
type Toolchain = keyof typeof TOOLCHAINS;

const onPath = (command: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((directory) => {
    try {
      fs.accessSync(path.join(directory || '.', command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const toolchainsRequired = Boolean(process.env.CI);
const missing = (Object.keys(TOOLCHAINS) as Toolchain[]).filter((l) => !TOOLCHAINS[l].commands.every(onPath));
const needs = (language: Toolchain) => `the ${language} example needs ${TOOLCHAINS[language].needs}`;
if (!toolchainsRequired) {
  for (const language of missing)
    console.warn(`[verify examples: ${language} skipped] ${needs(language)}. Set CI=1 to make this a failure.`);
}
const LANGUAGES = (Object.keys(VERIFIERS) as Language[]).filter(
  (language) => toolchainsRequired || !(missing as Language[]).includes(language),
);
const runs = (language: Toolchain) => LANGUAGES.includes(language);

const run = promisify(execFile);

beforeAll(async () => {
  if (toolchainsRequired && missing.length > 0) {
    throw new Error(`CI is set, so every verifier example must run, but ${missing.map(needs).join('; ')}.`);
  }
  fs.mkdirSync(BUILD);
  await Promise.all([
    // --release 11: the example must keep compiling on the oldest Java it promises (and its
    // pt-BR comments are UTF-8 whatever the locale).
    runs('java') && run('javac', ['--release', '11', '-encoding', 'UTF-8', '-d', BUILD, path.join(EXAMPLES, 'java/Verify.java')]),
    // Built as the module of examples/verify/go (go.mod pins the language version); never
    // downloads a newer toolchain.
    runs('go') &&
      run('go', ['build', '-o', VERIFIERS.go[0], '.'], {
        cwd: path.join(EXAMPLES, 'go'),
        env: { ...process.env, GOTOOLCHAIN: 'local' },
      }),
  ]);
}, 180_000);

const vectors = signatureVectors;
let files = 0;

/** Writes the body byte for byte, as the receiver got it. */
function bodyFile(body: string | Buffer): string {
  const file = path.join(dir, `corpo-${++files}`);
  fs.writeFileSync(file, body);
  return file;
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command line to its end; `stdin` is written to its standard input. */
function runCommand(
  commandLine: readonly string[],
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {},
): Promise<Outcome> {
  const [command, ...prefix] = commandLine;
  return new Promise((resolve) => {
    const child = execFile(
      command!,
      [...prefix, ...args],
      { env: { ...process.env, ...options.env }, cwd: options.cwd },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    // A verifier that exits without reading its input (usage error) closes the pipe first.
    child.stdin!.on('error', () => {});
    child.stdin!.end(options.stdin);
  });
}

function verify(
  language: Language,
  file: string,
  header: string,
  secrets: string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<Outcome> {
  return runCommand(VERIFIERS[language], [file, header, ...secrets], { env, stdin });
}

/** Every verifier on the same input: [language, exit code, reason] for each. */
async function allVerifiers(file: string, header: string, secrets: string[], env: Record<string, string> = {}, stdin?: string) {
  return Promise.all(
    LANGUAGES.map(async (language) => {
      const outcome = await verify(language, file, header, secrets, env, stdin);
      return [language, outcome.code, /assinatura inválida: (\w+)/.exec(outcome.stderr)?.[1] ?? outcome.stderr.trim()] as const;
    }),
  );
}

const expectAll = (code: number, reason = '') => LANGUAGES.map((language) => [language, code, reason]);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the examples agree with the shared vectors', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, vector) => {
    const file = bodyFile(vector.body);
    const at = { AGORA: String(vector.timestamp) };
    expect(await allVerifiers(file, vector.header, vector.secrets, at)).toEqual(expectAll(0));
    // Each secret alone verifies (the rotation vector carries two v1).
    for (const secret of vector.secrets) expect(await allVerifiers(file, vector.header, [secret], at)).toEqual(expectAll(0));
    expect(await allVerifiers(file, vector.header, ['whsec_outro'], at)).toEqual(expectAll(1, 'assinatura_nao_confere'));
  });

  it('print what they verified', async () => {
    const vector = vectors[0]!;
    const file = bodyFile(vector.body);
    for (const language of LANGUAGES) {
      const outcome = await verify(language, file, vector.header, vector.secrets, { AGORA: String(vector.timestamp) });
      // The shell example does not read JSON; the others name the event.
      expect(outcome.stdout).toBe(
        language === 'shell'
          ? 'assinatura válida\n'
          : 'assinatura válida (evento proposta.criada 01890f4e-7a2b-7c3d-8e4f-5a6b7c8d9e0f)\n',
      );
    }
  });
});

describe('each way a delivery can be wrong', () => {
  const vector = vectors[0]!;
  const T = vector.timestamp;
  const secret = vector.secrets[0]!;

  it('tampered body, trailing newline, re-serialized JSON', async () => {
    for (const body of [
      vector.body.replace('5000', '50000'),
      vector.body + '\n',
      JSON.stringify(JSON.parse(vector.body), null, 2),
    ]) {
      expect(await allVerifiers(bodyFile(body), vector.header, [secret], { AGORA: String(T) })).toEqual(
        expectAll(1, 'assinatura_nao_confere'),
      );
    }
  });

  it('a body that ends with a newline is signed over that newline too', async () => {
    const body = vector.body + '\n';
    expect(await allVerifiers(bodyFile(body), signatureHeader([secret], T, body), [secret], { AGORA: String(T) })).toEqual(
      expectAll(0),
    );
  });

  it('stale and future timestamps; exactly at the tolerance still valid; TOLERANCIA', async () => {
    const file = bodyFile(vector.body);
    expect(await allVerifiers(file, vector.header, [secret], { AGORA: String(T + 300) })).toEqual(expectAll(0));
    expect(await allVerifiers(file, vector.header, [secret], { AGORA: String(T - 300) })).toEqual(expectAll(0));
    expect(await allVerifiers(file, vector.header, [secret], { AGORA: String(T + 301) })).toEqual(
      expectAll(1, 'timestamp_fora_da_tolerancia'),
    );
    expect(await allVerifiers(file, vector.header, [secret], { AGORA: String(T - 301) })).toEqual(
      expectAll(1, 'timestamp_fora_da_tolerancia'),
    );
    expect(await allVerifiers(file, vector.header, [secret], { AGORA: String(T + 1000), TOLERANCIA: '3600' })).toEqual(
      expectAll(0),
    );
    // Without AGORA the system clock is used.
    const now = Math.floor(Date.now() / 1000);
    expect(await allVerifiers(file, signatureHeader([secret], now, vector.body), [secret])).toEqual(expectAll(0));
    expect(await allVerifiers(file, signatureHeader([secret], now - 600, vector.body), [secret])).toEqual(
      expectAll(1, 'timestamp_fora_da_tolerancia'),
    );
  });

  it('missing and malformed headers', async () => {
    const file = bodyFile(vector.body);
    expect(await allVerifiers(file, '', [secret], { AGORA: String(T) })).toEqual(expectAll(1, 'cabecalho_ausente'));
    for (const bad of malformedHeaders(T)) {
      expect(await allVerifiers(file, bad, [secret], { AGORA: String(T) })).toEqual(expectAll(1, 'cabecalho_malformado'));
    }
    // Other schemes are ignored.
    expect(await allVerifiers(file, `${vector.header},v0=abc`, [secret], { AGORA: String(T) })).toEqual(expectAll(0));
  });

  it('usage errors exit 2', async () => {
    for (const language of LANGUAGES) expect((await verify(language, bodyFile('{}'), 't=1', [])).code).toBe(2);
  });
});

describe('deliveries from a real service', () => {
  let service: TestService;
  let receiver: Receiver;
  let consigna: Consigna;

  beforeAll(async () => {
    service = await startTestService({ listen: true, worker: true, env: { CONSIGNA_ALLOW_INSECURE_WEBHOOKS: 'true' } });
    receiver = await startReceiver();
    const channel = await service.createChannel();
    consigna = new Consigna({ baseUrl: service.baseUrl, clientId: channel.clientId, clientSecret: channel.clientSecret });
  });

  afterAll(async () => {
    await receiver?.close();
    await service?.close();
  });

  const header = (request: ReceivedRequest) => String(request.headers['x-service-signature']);

  it('the test event, before and during a rotation, with either secret; and a proposal event', async () => {
    const { segredo: first } = await consigna.putWebhook({ url: receiver.url });
    rememberSecret(first);
    expect(await consigna.sendTestEvent()).toMatchObject({ entregue: true });
    const testEvent = receiver.requests.at(-1)!;
    expect(JSON.parse(testEvent.body)).toMatchObject({ tipo: 'webhook.teste' });
    const testFile = bodyFile(testEvent.body);
    expect(await allVerifiers(testFile, header(testEvent), [first!])).toEqual(expectAll(0));
    expect(await allVerifiers(testFile, header(testEvent), ['whsec_outro'])).toEqual(expectAll(1, 'assinatura_nao_confere'));
    expect(await allVerifiers(bodyFile(testEvent.body.replace('teste', 'Teste')), header(testEvent), [first!])).toEqual(
      expectAll(1, 'assinatura_nao_confere'),
    );

    const { segredo: second } = await consigna.rotateWebhookSecret();
    rememberSecret(second);
    await consigna.sendTestEvent();
    const rotated = receiver.requests.at(-1)!;
    expect(header(rotated).match(/v1=/g)).toHaveLength(2);
    const rotatedFile = bodyFile(rotated.body);
    for (const secrets of [[first!], [second!], [second!, first!]])
      expect(await allVerifiers(rotatedFile, header(rotated), secrets)).toEqual(expectAll(0));

    // A proposal event from the worker's queue: the journey up to the bank's refusal.
    const link = await consigna.createLink({ cpf: '00000000515', referenciaExterna: 'pedido-exemplos' });
    rememberSecret(link.url.slice(link.url.lastIndexOf('/') + 1));
    const journey = new JourneyClient(service, link.url);
    await journey.upToReview();
    await journey.post('proposta');
    await waitFor(() => receiver.requests.some((r) => r.headers['x-service-event-type'] === 'proposta.falha'), {
      timeoutMs: 15_000,
      what: 'proposta.falha delivered',
    });
    const failure = receiver.requests.find((r) => r.headers['x-service-event-type'] === 'proposta.falha')!;
    const failureFile = bodyFile(failure.body);
    expect(await allVerifiers(failureFile, header(failure), [second!])).toEqual(expectAll(0));
    expect(await allVerifiers(failureFile, header(failure), [first!])).toEqual(expectAll(0));
    // Read from standard input too ("-").
    expect(await allVerifiers('-', header(failure), [second!], {}, failure.body)).toEqual(expectAll(0));
  });
});

describe('the documented command lines of the compiled examples', () => {
  // examples/README.md runs them from the repository root, compiling from source.
  const vector = vectors[0]!;
  const env = { AGORA: String(vector.timestamp), GOTOOLCHAIN: 'local' };
  const args = () => [bodyFile(vector.body), vector.header, ...vector.secrets];
  const verified = 'assinatura válida (evento proposta.criada 01890f4e-7a2b-7c3d-8e4f-5a6b7c8d9e0f)\n';

  it.skipIf(!runs('java'))('java examples/verify/java/Verify.java', async () => {
    const java = ['java', 'examples/verify/java/Verify.java'];
    const [valid, usage] = await Promise.all([
      runCommand(java, args(), { cwd: ROOT, env }),
      runCommand(java, args().slice(0, 2), { cwd: ROOT, env }),
    ]);
    expect(valid).toMatchObject({ code: 0, stdout: verified });
    expect(usage).toMatchObject({ code: 2 });
  });

  it.skipIf(!runs('go'))('go run examples/verify/go/verify.go', async () => {
    const goRun = ['go', 'run', 'examples/verify/go/verify.go'];
    const [valid, usage] = await Promise.all([
      runCommand(goRun, args(), { cwd: ROOT, env }),
      runCommand(goRun, args().slice(0, 2), { cwd: ROOT, env }),
    ]);
    expect(valid).toMatchObject({ code: 0, stdout: verified });
    // `go run` exits 1 whatever the program's non-zero status (golang/go#13440) and says
    // which it was; the README says to `go build` for the 2 of a usage error.
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('uso: go run verify.go CORPO');
    expect(usage.stderr).toContain('exit status 2');
  });
});
