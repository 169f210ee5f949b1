// The alert rules and the dashboard that ship in ops/ (docs/observability.md "Alerts and dashboard"): promtool
// checks the rules and runs their unit tests, and every metric name the rules and the
// dashboard query is one the service exports at /metrics.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

const run = promisify(execFile);
const OPS = path.resolve(import.meta.dirname, '../../ops');
const RULES = path.join(OPS, 'prometheus');

const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => fs.existsSync(p));
const required = Boolean(process.env.CI);
if (!promtool && !required) {
  console.warn('[promtool checks skipped] install it with `apt-get install prometheus`. Set CI=1 to make this a failure.');
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

/** Every series name /metrics can show: counters and gauges as named, histograms with their suffixes. */
async function exportedNames(): Promise<Set<string>> {
  const body = (await service.inject({ method: 'GET', url: '/metrics' })).body;
  const names = new Set<string>();
  for (const [, name, type] of body.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

const metricNames = (expr: string) => [...expr.matchAll(/\b(consigna_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

describe('ops/: alert rules and dashboard', () => {
  it.skipIf(!promtool && !required)('promtool checks the rules and passes their unit tests', async () => {
    if (!promtool) throw new Error('promtool is required under CI (apt-get install prometheus)');
    const check = await run(promtool, ['check', 'rules', 'consigna-alerts.yml'], { cwd: RULES });
    expect(check.stdout).toContain('SUCCESS: 9 rules found');
    const tested = await run(promtool, ['test', 'rules', 'consigna-alerts.test.yml'], { cwd: RULES });
    expect(tested.stdout).toContain('SUCCESS');
  });

  it('queries only metric names the service exports, in the rules and in every dashboard panel', async () => {
    const exported = await exportedNames();
    expect(exported.has('consigna_http_requests_total')).toBe(true);
    expect(exported.has('consigna_webhook_event_to_delivery_seconds_bucket')).toBe(true);

    const rules = fs.readFileSync(path.join(RULES, 'consigna-alerts.yml'), 'utf8');
    const ruleExprs = [...rules.matchAll(/expr: (\|\n(?:\s{10}.*\n)+|.*)/g)].map((m) => m[1]!);
    expect(ruleExprs.length).toBe(9);
    const dashboard = JSON.parse(fs.readFileSync(path.join(OPS, 'grafana', 'consigna-dashboard.json'), 'utf8')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
      templating: { list: Array<{ query?: string }> };
    };
    const panelExprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(panelExprs.length).toBeGreaterThanOrEqual(12);
    const used = new Set(
      [...ruleExprs, ...panelExprs, ...dashboard.templating.list.map((v) => v.query ?? '')].flatMap(metricNames),
    );
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});
