// README "Configuration" is the operators' view of src/config/env-schema.ts: every variable
// the schema knows has a row, and a default the table shows is the schema's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config/env-schema.ts';

const SCHEMA = EnvSchema.properties as Record<string, { default?: unknown }>;

/** The table's rows as [names, defaults]: `A`, `B` | `1`, `2` | … */
function table(): { names: string[]; defaults: string[] | undefined }[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [namesCell = '', defaultCell = ''] = line.split(' | ');
      const names: string[] = [];
      for (const [, token = ''] of namesCell.matchAll(/`([^`]+)`/g)) {
        // `OTEL_TRACES_SAMPLER` (+`_ARG`) names two; `OTEL_TRACES_EXPORTER=none` names one.
        if (token.startsWith('_') && names.length > 0) names.push(names.at(-1) + token);
        else names.push(token.split('=')[0]!);
      }
      // Only a cell of backticked values, one per name, is a default to compare.
      const values = [...defaultCell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      const onlyValues = defaultCell.replace(/`[^`]+`/g, '').replace(/[,\s]/g, '') === '';
      return { names, defaults: onlyValues && values.length === names.length ? values : undefined };
    });
}

const documented = (rows: ReturnType<typeof table>, name: string) =>
  rows.some((row) => row.names.some((pattern) => new RegExp(`^${pattern.replaceAll('*', '[A-Z_]+')}$`).test(name)));

describe('README configuration table', () => {
  const rows = table();

  it('has a row for every variable the schema knows', () => {
    const missing = Object.keys(SCHEMA).filter((name) => !documented(rows, name));
    expect(missing).toEqual([]);
  });

  it("shows the schema's defaults", () => {
    const compared: string[] = [];
    for (const { names, defaults } of rows) {
      if (!defaults) continue;
      names.forEach((name, index) => {
        const schemaDefault = SCHEMA[name]?.default;
        if (schemaDefault === undefined) return;
        expect(`${name} = ${defaults[index]}`).toBe(`${name} = ${String(schemaDefault)}`);
        compared.push(name);
      });
    }
    // Most rows show a plain default: a parser that stopped reading them must not pass quietly.
    expect(compared.length).toBeGreaterThan(30);
  });
});
