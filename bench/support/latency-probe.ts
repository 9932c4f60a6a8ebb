/**
 * An open-loop latency probe, in a process of its own: GET `url` every `intervalMs` whatever the
 * previous answers are doing (a closed loop would send nothing while the server is stalled and
 * so never see the stall), until stdin closes; then prints `{ n, p50, p99, max, errors }` in ms
 * as one JSON line. `npx tsx bench/support/latency-probe.ts <url> [intervalMs=5]`.
 */
import http from 'node:http';
import { percentile } from '../stats.js';

const [url, interval = '5'] = process.argv.slice(2);
if (!url) throw new Error('usage: latency-probe.ts <url> [intervalMs]');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const samples: number[] = [];
let errors = 0;
let inFlight = 0;

const timer = setInterval(() => {
  const sent = performance.now();
  inFlight++;
  http
    .get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        inFlight--;
        if (res.statusCode === 200) samples.push(performance.now() - sent);
        else errors++;
      });
    })
    .on('error', () => {
      inFlight--;
      errors++;
    });
}, Number(interval));

process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', async () => {
  clearInterval(timer);
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
  const summary =
    samples.length === 0
      ? { n: 0, p50: 0, p99: 0, max: 0, errors }
      : { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples), errors };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  agent.destroy();
  process.exit(0);
});
