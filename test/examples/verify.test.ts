// The three signature verifiers of examples/verify (Node, Python standard library,
// bash + openssl), run as a channel would run them, as child processes: against the
// shared vectors, against each way a delivery can be wrong, and against deliveries
// captured from a real service (test event and a proposal event, before and during
// a secret rotation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Consigna } from '../../packages/sdk/src/index.ts';
import { signatureHeader } from '../../src/webhooks/signature.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver.ts';
import { JourneyClient } from '../helpers/journey.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { waitFor } from '../helpers/wait.ts';
import { malformedHeaders, signatureVectors } from '../vectors/signatures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VERIFIERS = {
  node: [process.execPath, path.join(ROOT, 'examples/verify/node/verify.mjs')],
  python: ['python3', path.join(ROOT, 'examples/verify/python/verify.py')],
  shell: ['bash', path.join(ROOT, 'examples/verify/shell/verify.sh')],
} as const;
type Language = keyof typeof VERIFIERS;
const LANGUAGES = Object.keys(VERIFIERS) as Language[];

const vectors = signatureVectors;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-verify-'));
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

function verify(
  language: Language,
  file: string,
  header: string,
  secrets: string[],
  env: Record<string, string> = {},
): Promise<Outcome> {
  const [command, script] = VERIFIERS[language];
  return new Promise((resolve) => {
    execFile(command, [script, file, header, ...secrets], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every verifier on the same input: [language, exit code, reason] for each. */
async function allVerifiers(file: string, header: string, secrets: string[], env: Record<string, string> = {}) {
  return Promise.all(
    LANGUAGES.map(async (language) => {
      const outcome = await verify(language, file, header, secrets, env);
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
      expect(outcome.stdout).toMatch(/^assinatura válida/);
    }
    expect((await verify('node', file, vector.header, vector.secrets, { AGORA: String(vector.timestamp) })).stdout).toContain(
      'proposta.criada 01890f4e-7a2b-7c3d-8e4f-5a6b7c8d9e0f',
    );
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
    const [command, script] = VERIFIERS.python;
    const piped = await new Promise<number>((resolve) => {
      const child = execFile(command, [script, '-', header(failure), second!], (error) =>
        resolve(error ? Number(error.code) : 0),
      );
      child.stdin!.end(failure.body);
    });
    expect(piped).toBe(0);
  });
});
