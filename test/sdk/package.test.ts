// @consigna/sdk as a channel would get it: packed with npm, installed into a project
// outside this repository, type-checked there by a strict TypeScript project that
// knows nothing of ours, and run by Node 20 (the oldest the package supports, the
// system Node here when present) against a real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../helpers/service.ts';
import { SDK_DIR, ensureSdkBuilt } from './build.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NPM_ENV = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
  try {
    return /^v20\./.test(execFileSync(candidate, ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
});

let service: TestService;
let project: string;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  await ensureSdkBuilt();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-sdk-consumer-'));
  const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], {
    cwd: SDK_DIR,
    encoding: 'utf8',
    env: NPM_ENV,
  })
    .trim()
    .split('\n')
    .at(-1)!;
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'canal-exemplo', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--ignore-scripts', '--no-package-lock', path.join(project, tarball)], {
    cwd: project,
    env: NPM_ENV,
    stdio: 'pipe',
  });
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships compiled JavaScript and declarations, not only TypeScript', () => {
    const installed = path.join(project, 'node_modules/@consigna/sdk');
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts', 'README.md'])
      expect(fs.existsSync(path.join(installed, file))).toBe(true);
  });

  it('type-checks in a strict consumer project (nodenext, no TypeScript-extension imports)', () => {
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        include: ['app.ts'],
      }),
    );
    fs.writeFileSync(
      path.join(project, 'app.ts'),
      `import { Consigna, ConsignaError, verifyWebhook, type CreatedLink, type ConsignaEvent, type ConsignaErrorCode } from '@consigna/sdk';
const consigna = new Consigna({ baseUrl: 'http://localhost:3000', clientId: 'cid_x', clientSecret: 'csk_x' });
export async function criar(cpf: string): Promise<CreatedLink> {
  try {
    return await consigna.createLink({ cpf, referenciaExterna: 'pedido-1' }, { idempotencyKey: 'pedido-1' });
  } catch (error) {
    const code: ConsignaErrorCode | string | undefined = error instanceof ConsignaError ? error.code : undefined;
    throw new Error(String(code));
  }
}
export function tratar(corpo: string, cabecalho: string | undefined): string {
  const evento: ConsignaEvent = verifyWebhook(corpo, cabecalho, ['whsec_x']);
  if (evento.tipo === 'proposta.falha') return evento.motivo;
  if (evento.tipo === 'webhook.teste') return evento.mensagem;
  return evento.proposta.status;
}
// @ts-expect-error not a status the simulator takes
void consigna.simulateProposal('id', 'ABERTA');
// @ts-expect-error cpf is required
void consigna.createLink({ celular: '11987654321' });
`,
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = (() => {
      try {
        return execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(result).toBe('');
  });

  if (!oldNode) console.info('[skipped: needs Node 20] the SDK on Node 20: no Node 20 at /usr/bin/node or /usr/local/bin/node.');
  it.skipIf(!oldNode)('runs on Node 20 against a real service', async () => {
    const channel = await service.createChannel({ name: 'Canal do pacote' });
    fs.writeFileSync(
      path.join(project, 'run.mjs'),
      `import { Consigna, verifyWebhook } from '@consigna/sdk';
const consigna = new Consigna({ baseUrl: process.env.URL, clientId: process.env.ID, clientSecret: process.env.SECRET });
const pong = await consigna.ping();
const v = JSON.parse(process.env.VECTOR);
const evento = verifyWebhook(v.body, v.header, v.secrets, { now: v.timestamp * 1000 });
console.log(JSON.stringify({ nome: pong.canal.nome, tipo: evento.tipo, node: process.version }));
`,
    );
    const vector = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/vectors/signatures.json'), 'utf8'))[0];
    const { execFile } = await import('node:child_process');
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        oldNode!,
        ['run.mjs'],
        {
          cwd: project,
          env: {
            PATH: process.env.PATH,
            URL: service.baseUrl,
            ID: channel.clientId,
            SECRET: channel.clientSecret,
            VECTOR: JSON.stringify(vector),
          },
        },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(output)).toMatchObject({
      nome: 'Canal do pacote',
      tipo: 'proposta.criada',
      node: expect.stringMatching(/^v20\./),
    });
  });
});
