/**
 * The operator files in ops/: Prometheus's own tool checks the alerting rules
 * (`promtool check rules`) and their behaviour on input series (`promtool test rules`), every
 * alert has a test in which it fires, and every `pmx_*` metric the rules and the Grafana
 * dashboard query is one the daemon exports. promtool comes with Debian's prometheus package
 * (`apt-get install prometheus`; .ci/run installs it): without it these tests fail, never skip.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/infra/metrics.js';

const OPS = path.resolve(import.meta.dirname, '../../ops');
const RULES = path.join(OPS, 'prometheus/alerts.yml');
const RULE_TESTS = path.join(OPS, 'prometheus/alerts.test.yml');
const DASHBOARD = path.join(OPS, 'grafana/dashboard.json');

function promtool(args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: path.join(OPS, 'prometheus'), encoding: 'utf8', timeout: 60_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(
      "promtool is missing: install Debian's prometheus package (apt-get install -y prometheus), which provides /usr/bin/promtool",
    );
  }
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Metric names the daemon's registry exports (histograms also as _bucket, _count and _sum). */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(metric.name + suffix);
  }
  return names;
}

const alertNames = (rules: string) => [...rules.matchAll(/^\s*- alert: (\w+)/gm)].map((m) => m[1]!);
const queriedNames = (text: string) => new Set([...text.matchAll(/\bpmx_[a-z_]+/g)].map((m) => m[0]));

describe('ops/prometheus/alerts.yml', () => {
  it('passes promtool check rules', () => {
    const run = promtool(['check', 'rules', RULES]);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain(`SUCCESS: ${alertNames(fs.readFileSync(RULES, 'utf8')).length} rules found`);
  });

  it('passes promtool test rules (alerts.test.yml)', () => {
    const run = promtool(['test', 'rules', RULE_TESTS]);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain('SUCCESS');
  });

  it('has a test in which each alert fires', () => {
    const tests = fs.readFileSync(RULE_TESTS, 'utf8');
    const firing = new Set<string>();
    // Each `alertname:` entry up to the next evaluation: does it expect an alert (exp_labels)?
    for (const entry of tests.split(/^\s*- eval_time:/m).slice(1)) {
      const name = /alertname: (\w+)/.exec(entry)?.[1];
      if (name && /exp_labels:/.test(entry)) firing.add(name);
    }
    const alerts = alertNames(fs.readFileSync(RULES, 'utf8'));
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    expect(alerts.filter((a) => !firing.has(a))).toEqual([]);
  });

  it('queries only metrics the daemon exports', async () => {
    const exported = await exportedNames();
    expect([...queriedNames(fs.readFileSync(RULES, 'utf8'))].filter((n) => !exported.has(n))).toEqual([]);
  });
});

describe('ops/grafana/dashboard.json', () => {
  interface Panel {
    id: number;
    type: string;
    title: string;
    gridPos: { x: number; y: number; w: number; h: number };
    datasource?: { uid: string };
    targets?: Array<{ expr: string; refId: string }>;
  }
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
    uid: string;
    title: string;
    schemaVersion: number;
    panels: Panel[];
    templating: { list: Array<{ name: string; type: string }> };
  };

  it('is a Grafana dashboard whose panels each query the selected Prometheus', () => {
    expect(dashboard.uid).toBe('pmx-daemon');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')?.type).toBe('datasource');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) expect(target.expr, panel.title).toMatch(/pmx_|up\b/);
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    }
  });

  it('charts the orderbook and queries only metrics the daemon exports', async () => {
    const text = fs.readFileSync(DASHBOARD, 'utf8');
    const queried = queriedNames(text);
    const exported = await exportedNames();
    expect([...queried].filter((n) => !exported.has(n))).toEqual([]);
    for (const name of [
      'pmx_clob_orders_total',
      'pmx_clob_fills',
      'pmx_clob_fill_settle_latency_seconds_bucket',
      'pmx_clob_matcher_batch_size_bucket',
      'pmx_clob_markets_owned',
      'pmx_clob_book_depth',
      'pmx_ready_check',
    ])
      expect(queried.has(name), name).toBe(true);
  });
});
