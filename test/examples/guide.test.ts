// The integration guide's code, run as a reader would paste it: the "Comece aqui"
// shell session and the link, query, simulator and inbox commands against a real
// service; the Node, Python and shell verifiers against the shared vectors; and the
// known-answer example the guide prints, checked against those vectors.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestService, type TestService } from '../helpers/service.ts';
import type { IssuedCredentials } from '../../src/channels/channels.service.ts';
import { rememberSecret } from '../helpers/secrets.ts';
import { signatureVectors } from '../vectors/signatures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GUIDE = fs.readFileSync(path.join(ROOT, 'docs/guia-integracao.md'), 'utf8');
const BLOCKS = [...GUIDE.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang: lang!, code: code! }));
const block = (lang: string, marker: string): string => {
  const found = BLOCKS.filter((b) => b.lang === lang && b.code.includes(marker));
  expect(found, `one ${lang} block with ${marker}`).toHaveLength(1);
  return found[0]!.code;
};

const vectors = signatureVectors;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-guia-'));

function run(command: string, args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      command,
      args,
      { env: { PATH: process.env.PATH, ...options.env }, cwd: options.cwd ?? dir },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(options.input ?? '');
  });
}

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('signature verification as the guide shows it', () => {
  it('the known-answer example printed in the guide is the first shared vector', () => {
    const vector = vectors[0]!;
    expect(GUIDE).toContain(`| Segredo | \`${vector.secrets[0]}\` |`);
    expect(GUIDE).toContain(`| \`X-Service-Signature\` | \`${vector.header}\` |`);
    expect(GUIDE).toContain(`| \`t\` | \`${vector.timestamp}\` |`);
    expect(block('json', '"tipo":"proposta.criada"').trimEnd()).toBe(vector.body);
  });

  it('Node.js snippet', async () => {
    const file = path.join(dir, 'verificar.mjs');
    fs.writeFileSync(file, block('js', 'export function verificar'));
    const { verificar } = (await import(pathToFileURL(file).href)) as {
      verificar: (body: string, header: string, secrets: string[], tolerance?: number) => boolean;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const v of vectors) {
        vi.setSystemTime(v.timestamp * 1000);
        expect([v.name, verificar(v.body, v.header, v.secrets)]).toEqual([v.name, true]);
        for (const secret of v.secrets) expect(verificar(v.body, v.header, [secret])).toBe(true);
        expect(verificar(v.body + ' ', v.header, v.secrets)).toBe(false);
        expect(verificar(v.body, v.header, ['whsec_outro'])).toBe(false);
        vi.setSystemTime((v.timestamp + 301) * 1000);
        expect(verificar(v.body, v.header, v.secrets)).toBe(false);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('Python snippet (standard library)', async () => {
    fs.writeFileSync(path.join(dir, 'verificar.py'), block('python', 'def verificar'));
    const harness = `
import json, sys, time
sys.path.insert(0, ${JSON.stringify(dir)})
import verificar as guia
vectors = json.load(open(${JSON.stringify(path.join(ROOT, 'test/vectors/signatures.json'))}))
results = []
for v in vectors:
    body = v["body"].encode("utf-8")
    time.time = lambda: v["timestamp"]
    results.append(guia.verificar(body, v["header"], v["secrets"]))
    results.extend(guia.verificar(body, v["header"], [s]) for s in v["secrets"])
    results.append(not guia.verificar(body + b" ", v["header"], v["secrets"]))
    results.append(not guia.verificar(body, "lixo", v["secrets"]))
    time.time = lambda: v["timestamp"] + 301
    results.append(not guia.verificar(body, v["header"], v["secrets"]))
print(json.dumps(results))
`;
    const outcome = await run('python3', ['-c', harness]);
    expect(outcome.stderr).toBe('');
    const results = JSON.parse(outcome.stdout) as boolean[];
    expect(results.length).toBeGreaterThan(16);
    expect(results.every(Boolean)).toBe(true);
  });

  it('shell snippet (openssl)', async () => {
    const script = block('sh', 'ESPERADO=');
    for (const v of vectors) {
      fs.writeFileSync(path.join(dir, 'corpo.json'), v.body);
      for (const secret of v.secrets) {
        const ok = await run('bash', ['-c', script], { env: { CABECALHO: v.header, CONSIGNA_WEBHOOK_SECRET: secret } });
        expect([v.name, ok.stdout.split('\n')[0]]).toEqual([v.name, 'assinatura válida']);
      }
      fs.writeFileSync(path.join(dir, 'corpo.json'), v.body + '\n');
      const bad = await run('bash', ['-c', script], { env: { CABECALHO: v.header, CONSIGNA_WEBHOOK_SECRET: v.secrets[0]! } });
      expect(bad.stdout.split('\n')[0]).toBe('assinatura inválida');
    }
  });
});

describe('the guide’s shell sessions against a real service', () => {
  let service: TestService;
  let channel: IssuedCredentials;
  beforeAll(async () => {
    service = await startTestService({ listen: true });
    channel = await service.createChannel({ name: 'Canal do guia' });
  });
  afterAll(async () => {
    await service?.close();
  });

  const session = (code: string) =>
    code.replaceAll('{base_url}', service.baseUrl).replace(/^export CONSIGNA_CLIENT_ID=cid_\.\.\..*$/m, '');
  const bash = async (script: string, credentials = channel) => {
    const outcome = await run('bash', ['--norc', '-euo', 'pipefail', '-c', script], {
      env: { CONSIGNA_CLIENT_ID: credentials.clientId, CONSIGNA_CLIENT_SECRET: credentials.clientSecret },
    });
    return outcome;
  };

  it('"Comece aqui": token, inbox as webhook, test event, viewer with "Assinatura válida"', async () => {
    const outcome = await bash(session(block('sh', 'campo()')));
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const lines = outcome.stdout.trim().split('\n');
    expect(lines[0]).toContain('"nome":"Canal do guia"');
    expect(outcome.stdout).toContain('"entregue":true');
    const viewer = lines.at(-1)!;
    expect(viewer).toMatch(new RegExp(`^${service.baseUrl}/sandbox/receptor/sbx_\\w+$`));
    const page = await (await fetch(viewer)).text();
    expect(page).toContain('webhook.teste');
    expect(page).toContain('Assinatura válida');
  });

  it('section 5 checks an inbox event by hand with the secret kept by "Comece aqui"', async () => {
    const handCheck = block('sh', 'eventos.json').replaceAll('examples/verify/', `${ROOT}/examples/verify/`);
    // A channel of its own: the secret is shown when the webhook is created.
    const fresh = await service.createChannel({ name: 'Canal da verificação à mão' });
    const outcome = await bash(session([block('sh', 'campo()'), handCheck].join('\n')), fresh);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.trim().split('\n').at(-1)).toMatch(/^assinatura válida \(evento webhook\.teste /);
  });

  it('token, link, query, journey simulation, proposal simulator, inbox and its mode, as sections 1, 2, 3, 8 and 10 show them', async () => {
    const token = block(
      'sh',
      'TOKEN=$(curl -s -u "$CONSIGNA_CLIENT_ID:$CONSIGNA_CLIENT_SECRET" -d grant_type=client_credentials \\\n  {base_url}/v1/oauth/token | sed',
    );
    const link = block('sh', 'LINK=$(curl');
    const query = block('sh', '/v1/links/$LINK_ID\n');
    const inbox = block('sh', 'RECEPTOR_TOKEN=');
    const mode = block('sh', '$RECEPTOR_TOKEN/modo');
    const simulate = block('sh', 'proposta/simular');
    const first = await bash(
      session([token, link, 'echo "LINK_ID=$LINK_ID"', query, inbox, 'echo "RECEPTOR_TOKEN=$RECEPTOR_TOKEN"', mode].join('\n')),
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const linkId = /^LINK_ID=(\S+)$/m.exec(first.stdout)?.[1];
    expect(linkId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.stdout).toContain(`"id":"${linkId}","status":"CRIADO"`);
    expect(first.stdout).toMatch(/^RECEPTOR_TOKEN=sbx_\w+$/m);
    expect(first.stdout).toContain('{"responderStatus":500}');
    const url = /"url":"([^"]+\/c\/[^"]+)"/.exec(first.stdout)![1]!;
    rememberSecret(url.slice(url.lastIndexOf('/') + 1));

    // The simulator needs a proposal: the journey first, as the guide says (section 8, no browser).
    const journey = block('sh', 'jornada/simular');
    const second = await bash(session([token, `LINK_ID=${linkId}`, journey, simulate].join('\n')));
    expect(second.stderr).toBe('');
    const [journeyAnswer, simulated] = second.stdout.trim().split('\n');
    expect(JSON.parse(journeyAnswer!)).toMatchObject({
      id: linkId,
      status: 'CONCLUIDO',
      proposta: { status: 'AGUARDANDO_FORMALIZACAO' },
    });
    expect(simulated).toBe('{"status":"FORMALIZADA","alterado":true}');
  });

  it('section 9: fast retries on and off, recovery, and a link expired now', async () => {
    const token = block(
      'sh',
      'TOKEN=$(curl -s -u "$CONSIGNA_CLIENT_ID:$CONSIGNA_CLIENT_SECRET" -d grant_type=client_credentials \\\n  {base_url}/v1/oauth/token | sed',
    );
    const fresh = await service.createChannel({ name: 'Canal das falhas' });
    const outcome = await bash(
      session(
        [
          token,
          block('sh', 'LINK=$(curl'),
          block('sh', 'RECEPTOR_TOKEN='),
          block('sh', 'retentativas/simular'),
          block('sh', 'expiracao/simular'),
        ].join('\n'),
      ),
      fresh,
    );
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const url = /"url":"([^"]+\/c\/[^"]+)"/.exec(outcome.stdout)![1]!;
    rememberSecret(url.slice(url.lastIndexOf('/') + 1));
    const lines = outcome.stdout.trim().split('\n');
    expect(lines).toContain('{"intervalosSegundos":[5,5,5,5,5,5]}');
    // The inbox set to 500 for the failures, then back to 200 for the recovery.
    const inboxStatuses = lines.filter((l) => l.includes('"visualizacaoUrl"')).map((l) => JSON.parse(l).responderStatus);
    expect(inboxStatuses.slice(-2)).toEqual([500, 200]);
    expect(lines).toContain('{"reenfileiradas":0}');
    expect(lines).toContain(`{"intervalosSegundos":[${service.config.retryDelaysSeconds.join(',')}]}`);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ status: 'EXPIRADO' });
  });
});
