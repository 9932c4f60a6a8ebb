import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Screenshots for a human to look at after a run, in the OS's temporary directory.
const SHOTS = os.tmpdir();
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('operator dashboard in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH`);
    }
    t = await createTestApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('logs in with the token and shows the queues and a waiting job', async () => {
    const job = await t.queues.enqueue('system.heartbeat', { scheduledBy: 'browser-test' });
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);

    await page.goto(`${base}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await expect(page.locator('h1').textContent()).resolves.toContain('PMX operator login');

    await page.fill('#name', 'admin');
    await page.fill('#secret', 'not-the-token-at-all');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.click('button[type=submit]')]);
    await page.getByRole('alert').waitFor();

    await page.fill('#name', 'admin');
    await page.fill('#secret', TEST_ADMIN_TOKEN);
    await Promise.all([page.waitForURL(`${base}/admin/queues`), page.click('button[type=submit]')]);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'pmx_session')).toMatchObject({ httpOnly: true });
    expect(cookies.some((c) => c.value.includes(TEST_ADMIN_TOKEN))).toBe(false);

    for (const name of ['system', 'tx-build', 'index', 'platform']) {
      await page.getByRole('link', { name, exact: true }).first().waitFor();
    }
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-overview.png'), fullPage: true });

    await page.getByRole('link', { name: 'system', exact: true }).first().click();
    await page.waitForURL(/\/admin\/queues\/queue\/system/);
    await page
      .getByRole('link', { name: /waiting/i })
      .first()
      .click();
    await page.waitForURL(/status=waiting/);
    await page.getByText(`#${job.id}`).first().waitFor();
    await page.getByText('system.heartbeat').first().waitFor();
    await page.getByText('browser-test').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });
    await page.close();
  });
});
