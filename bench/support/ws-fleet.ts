/**
 * The fan-out bench's clients: n WebSockets that count the frames they receive, keep the last
 * sequence number each has seen, and (while `sampling`) the delay from each sampled frame's
 * timestamp to its arrival.
 */
import { WebSocket } from 'ws';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SEQ = /^\{"seq":(\d+),/;
const TS = /"timestamp":(\d+)\}$/;

/** 1,000 (or n) sockets that count frames, track the last seq and sample delays from the frames' timestamps. */
export class Fleet {
  readonly sockets: WebSocket[] = [];
  received = 0;
  lastSeq: number[] = [];
  delays: number[] = [];
  sampling = false;

  static async open(url: string, n: number, subscribe?: unknown): Promise<Fleet> {
    const fleet = new Fleet();
    for (let i = 0; i < n; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => fleet.add(url, i + j, subscribe)));
    }
    return fleet;
  }

  private add(url: string, index: number, subscribe?: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      this.lastSeq[index] = -1;
      socket.on('message', (data: Buffer) => {
        this.received++;
        const head = SEQ.exec(data.toString('latin1', 0, 24));
        if (head) this.lastSeq[index] = Number(head[1]);
        else if (subscribe && data.toString('latin1', 0, 16).startsWith('{"event":"book"'))
          this.lastSeq[index] = Number(/"seq":(\d+)/.exec(data.toString('latin1', 0, 40))![1]);
        if (this.sampling && index % 20 === 0) {
          const ts = TS.exec(data.toString('latin1', data.length - 40));
          if (ts) this.delays.push(Date.now() - Number(ts[1]));
        }
      });
      socket.once('open', () => {
        if (subscribe) socket.send(JSON.stringify(subscribe));
        this.sockets.push(socket);
        resolve();
      });
      socket.once('error', reject);
    });
  }

  minSeq(): number {
    let min = Infinity;
    for (const s of this.lastSeq) min = Math.min(min, s);
    return min;
  }

  async until(seq: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.minSeq() < seq) {
      if (Date.now() > deadline) throw new Error(`fleet stuck at seq ${this.minSeq()} < ${seq}`);
      await sleep(2);
    }
  }

  close(): void {
    for (const s of this.sockets) s.terminate();
  }
}
