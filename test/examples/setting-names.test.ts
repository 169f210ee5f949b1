// One spelling for the settings an integrator exports: CONSIGNA_URL, CONSIGNA_CLIENT_ID,
// CONSIGNA_CLIENT_SECRET and CONSIGNA_WEBHOOK_SECRET, in the README, the guide served at
// /docs, the SDK (sources and README) and the examples. A reader who copies the guide's
// `export` and then runs `listen` or an example must not meet a second name for the
// same thing (CLIENT_ID, BASE, SEGREDO…).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config/env-schema.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CANONICAL = new Set(['CONSIGNA_URL', 'CONSIGNA_CLIENT_ID', 'CONSIGNA_CLIENT_SECRET', 'CONSIGNA_WEBHOOK_SECRET']);
/** The service's own variables (README "Configuration"), also CONSIGNA_*: not the integrator's settings. */
const SERVICE = new Set(Object.keys(EnvSchema.properties));
/** Other CONSIGNA_* names the scanned files may use, each for something else. */
const OTHER_CONSIGNA = new Set([
  'CONSIGNA_WEBHOOK_SECRET_ANTERIOR', // the receiver example's previous secret during a rotation
  'CONSIGNA_UPDATE_SDK_TYPES', // the SDK types test's switch (SDK README)
  'CONSIGNA_NODE_FLAGS', // read by bin/consigna.js before the service's schema (README "Configuration")
]);
/** Any name for the service's address, the channel's credentials or the webhook secret. */
const ALIAS =
  /(^|_)(CLIENT_?ID|CLIENT_?SECRET|CLIENT|CID|CSK|WEBHOOK_?SECRET|SIGNING_?SECRET|WHSEC|SEGREDO|SECRET|BASE_?URL|API_?URL|API_?BASE|BASE|ORIGIN|ENDPOINT)$/;
/** Variables that hold a setting: `$X`, `${X`, `X=` (shell), `env.X`, `env['X']`, `getenv("X")`, `environ["X"]`. */
const VARIABLE_USES = [
  /\$\{?([A-Z][A-Z0-9_]*)/g,
  /(?:^|[\s;(`'"])([A-Z][A-Z0-9_]*)=/gm,
  /\benv\.([A-Z][A-Z0-9_]*)/g,
  /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
  /getenv\(\s*['"]([A-Z][A-Z0-9_]*)['"]/g,
  /environ(?:\.get\(|\[)\s*['"]([A-Z][A-Z0-9_]*)['"]/g,
];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}

const SCANNED = [
  'README.md',
  'docs/guia-integracao.md',
  'packages/sdk/README.md',
  ...filesUnder('packages/sdk/src'),
  ...filesUnder('packages/sdk/scripts'),
  ...filesUnder('examples'),
];

/**
 * The one place an old name may appear: the CLI's table of names it read before, which
 * it still accepts with a deprecation warning.
 */
function withoutLegacyTable(file: string, text: string): string {
  if (file !== 'packages/sdk/src/cli.ts') return text;
  return text.replace(/^const LEGACY_ENV = \{[^}]*\} as const;$/m, '');
}

/** Every wrong spelling in `text`, as `line: NAME`. */
function wrongSpellings(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = (name: string) => found.push(`${index + 1}: ${name}`);
    for (const [name] of line.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*[A-Z0-9_](?![A-Za-z0-9_])/g)) {
      if (CANONICAL.has(name) || SERVICE.has(name)) continue;
      if (name.startsWith('CONSIGNA_')) {
        const prefixOfService = name.endsWith('_') && [...SERVICE].some((known) => known.startsWith(name));
        if (!OTHER_CONSIGNA.has(name) && !prefixOfService) at(name);
      } else if (name.includes('_') && ALIAS.test(name)) at(name);
    }
    for (const pattern of VARIABLE_USES) {
      for (const [, name = ''] of line.matchAll(pattern)) {
        if (!CANONICAL.has(name) && !SERVICE.has(name) && !name.startsWith('CONSIGNA_') && ALIAS.test(name)) at(name);
      }
    }
  });
  return [...new Set(found)];
}

describe('the names of the integrator’s settings', () => {
  it('are spelled one way in the README, the guide, the SDK and the examples', () => {
    expect(SCANNED.length).toBeGreaterThan(15);
    const wrong = SCANNED.flatMap((file) =>
      wrongSpellings(withoutLegacyTable(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))).map((hit) => `${file}:${hit}`),
    );
    expect(wrong).toEqual([]);
  });

  it('each of the four is actually taught: in the README, the guide and the SDK README', () => {
    for (const file of ['README.md', 'docs/guia-integracao.md', 'packages/sdk/README.md']) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect([file, [...CANONICAL].filter((name) => !text.includes(name))]).toEqual([file, []]);
    }
  });

  it('catches the spellings that were in use, and leaves other variables alone', () => {
    const samples = [
      'export CLIENT_ID=cid_... CLIENT_SECRET=csk_...',
      'curl -u "$CLIENT_ID:$CLIENT_SECRET"',
      'BASE=http://localhost:3000',
      'SECRET=$(echo "$WEBHOOK" | cut -d, -f1)',
      'SEGREDO=$(echo "$WEBHOOK")',
      'openssl dgst -hmac "$SEGREDO"',
      "new Consigna({ clientId: process.env.CLIENT_ID, baseUrl: process.env['API_URL'] })",
      'CONSIGNA_BASE_URL=http://x CONSIGNA_API_URL=http://y CONSIGNA_SECRET=z',
      'WEBHOOK_SECRET=whsec_x',
      'os.environ.get("BASE_URL")',
    ];
    for (const sample of samples) expect([sample, wrongSpellings(sample)]).not.toEqual([sample, []]);
    const fine = [
      'export CONSIGNA_URL={base_url} CONSIGNA_CLIENT_ID=cid_... CONSIGNA_CLIENT_SECRET=csk_...',
      'CONSIGNA_WEBHOOK_SECRET=whsec_… node examples/receiver/receiver.mjs',
      'RECEPTOR_URL=$(echo "$RECEPTOR" | campo url); curl "$RECEPTOR_URL/eventos" -H "Authorization: Bearer $TOKEN"',
      'PUBLIC_BASE_URL and DATABASE_URL, CONSIGNA_SHED_* and CONSIGNA_MASTER_KEY',
      'node verify.mjs CORPO CABECALHO SEGREDO [SEGREDO_ANTERIOR]',
      'a URL local; client_id e client_secret',
    ];
    for (const sample of fine) expect([sample, wrongSpellings(sample)]).toEqual([sample, []]);
  });
});
