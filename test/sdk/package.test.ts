// @consigna/sdk as a channel would get it: packed with npm (its prepack builds dist/),
// installed into a project outside this repository with npm's strict settings and
// scripts allowed (nothing may run, nothing may warn), used there to verify the shared
// signature vectors, type-checked by a strict TypeScript project that knows nothing of
// ours, and run by Node 20 (the oldest the package supports, the system Node here when
// present) against a real service. The package has no dependencies: all of it works
// with npm offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../helpers/service.ts';
import { SDK_DIR, withSdkBuildLock } from './build.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NPM_ENV = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
  try {
    return /^v20\./.test(execFileSync(candidate, ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
});
/** The lifecycle scripts npm runs when a package is installed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

let service: TestService;
let project: string;
let tarball: string;
let packOutput: string;
let installOutput: string;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'consigna-sdk-consumer-'));
  // With its scripts, as `npm publish` would: prepack builds dist/ from src/. Under the
  // build lock: other test files read dist/ meanwhile.
  const packed = await withSdkBuildLock(() =>
    spawnSync('npm', ['pack', '--foreground-scripts', '--pack-destination', project], {
      cwd: SDK_DIR,
      encoding: 'utf8',
      env: NPM_ENV,
    }),
  );
  packOutput = `${packed.stdout}${packed.stderr}`;
  expect(packed.status, packOutput).toBe(0);
  tarball = path.join(
    project,
    fs.readdirSync(project).find((name) => name.endsWith('.tgz'))!,
  );
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'canal-exemplo', private: true, type: 'module' }));
  const installed = spawnSync(
    'npm',
    [
      'install',
      '--offline',
      '--ignore-scripts=false',
      '--foreground-scripts',
      '--strict-peer-deps',
      '--engine-strict',
      '--no-package-lock',
      tarball,
    ],
    { cwd: project, encoding: 'utf8', env: NPM_ENV },
  );
  installOutput = `${installed.stdout}${installed.stderr}`;
  expect(installed.status, installOutput).toBe(0);
}, 180_000);

afterAll(async () => {
  await service?.close();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('is built by npm pack and carries its built files, with no install script and no dependency', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/openapi.d.ts',
      'dist/cli.js',
      'bin/consigna-sdk.js',
      'README.md',
    ])
      expect(listing).toContain(`package/${file}`);
    // What is not needed to use it stays home (the build is done before packing).
    expect(listing.filter((file) => /^package\/(scripts|test|node_modules)\//.test(file))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name))).toEqual([]);
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    // The pack built it (prepack), rather than packing whatever dist/ held.
    expect(packOutput).toContain('scripts/build.mjs');
  });

  it('installs with scripts allowed and strict settings, without a warning', () => {
    expect(installOutput).not.toMatch(/install[- ]scripts|allowScripts|npm warn|npm WARN/i);
    const installed = path.join(project, 'node_modules/@consigna/sdk');
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts', 'README.md'])
      expect(fs.existsSync(path.join(installed, file))).toBe(true);
    // The command too, through the link npm made (`npx @consigna/sdk listen …`).
    const help = execFileSync(path.join(project, 'node_modules/.bin/consigna-sdk'), ['listen', '--help'], { encoding: 'utf8' });
    expect(help).toContain('consigna-sdk listen --forward-to URL');
  });

  it('is used from the consumer project: the client, and verifyWebhook on the shared vectors', () => {
    fs.writeFileSync(
      path.join(project, 'vetores.mjs'),
      `import { readFileSync } from 'node:fs';
import { Consigna, verifyWebhook, WebhookSignatureError } from '@consigna/sdk';
const vectors = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const consigna = new Consigna({ baseUrl: 'http://localhost:3000', clientId: 'cid_x', clientSecret: 'csk_x' });
const results = vectors.map((v) => {
  const evento = verifyWebhook(v.body, v.header, v.secrets, { now: v.timestamp * 1000 });
  let recusado;
  try {
    verifyWebhook(v.body + ' ', v.header, v.secrets, { now: v.timestamp * 1000 });
  } catch (error) {
    recusado = error instanceof WebhookSignatureError ? error.reason : String(error);
  }
  return { id: evento.id, recusado };
});
console.log(JSON.stringify({ cliente: typeof consigna.createLink, results }));
`,
    );
    const vectorsFile = path.join(ROOT, 'test/vectors/signatures.json');
    const vectors = JSON.parse(fs.readFileSync(vectorsFile, 'utf8')) as { body: string }[];
    const output = JSON.parse(execFileSync(process.execPath, ['vetores.mjs', vectorsFile], { cwd: project, encoding: 'utf8' }));
    expect(output.cliente).toBe('function');
    expect(output.results).toEqual(
      vectors.map((v) => ({ id: (JSON.parse(v.body) as { id: string }).id, recusado: 'no_matching_signature' })),
    );
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
    // tsc reads the 300 KB of API types: 25 s on a busy 2-CPU machine.
  }, 120_000);

  if (!oldNode) console.info('[skipped: needs Node 20] the SDK on Node 20: no Node 20 at /usr/bin/node or /usr/local/bin/node.');
  it.skipIf(!oldNode)('runs on Node 20 against a real service', async () => {
    const channel = await service.createChannel({ name: 'Canal do pacote' });
    fs.writeFileSync(
      path.join(project, 'run.mjs'),
      `import { Consigna, verifyWebhook } from '@consigna/sdk';
const consigna = new Consigna({
  baseUrl: process.env.CONSIGNA_URL,
  clientId: process.env.CONSIGNA_CLIENT_ID,
  clientSecret: process.env.CONSIGNA_CLIENT_SECRET,
});
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
            CONSIGNA_URL: service.baseUrl,
            CONSIGNA_CLIENT_ID: channel.clientId,
            CONSIGNA_CLIENT_SECRET: channel.clientSecret,
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
