/**
 * One channel's connection (`/v2/ws/market` or `/v2/ws/user`) that stays up by itself:
 *
 * - reconnects after any close but the caller's, with exponential backoff and jitter
 *   (backoff.ts); the attempt count starts again once a connection stayed up `stableMs`;
 * - keeps the connection alive as the daemon asks (a text `PING` every ~15 s; silent clients are
 *   closed with 4008 after 30 s) and drops it when nothing at all arrives for `pongTimeoutMs`
 *   after a PING (a half-open TCP connection never closes by itself);
 * - answers a server's text `PING` with `PONG` (protocol pings are answered by the socket itself);
 * - paces what it sends under the daemon's 20 frames per second (more closes the socket, 4029);
 * - pairs each answer with the command it answers: the daemon answers frames in order.
 *
 * Every timer it starts is cleared by `close()`, and the socket is closed, so a closed client
 * keeps no event-loop handle. Works with the `ws` package and with a browser's WebSocket.
 */
import { backoffDelay, type BackoffOptions } from './backoff.js';
import type { ServerFrame } from './messages.js';
import { SendPacer } from './send-pacer.js';
import { Timers, type Timer } from './timers.js';

/** A handler property checked bivariantly, so that `ws`'s and the DOM's richer event types fit. */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** The part of the WHATWG WebSocket this client uses (the `ws` package has it too). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** `ws` only: drop the TCP connection at once. */
  terminate?(): void;
  onopen: Handler<unknown> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onerror: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface KeepAliveOptions {
  /** How often to send `PING` (default 15 s; the daemon closes a connection silent for 30 s). */
  pingIntervalMs?: number;
  /** How long after a PING with no frame at all before the connection is dropped (default 10 s). */
  pongTimeoutMs?: number;
  /** How long a connection may take to open before it is dropped (default 10 s). */
  connectTimeoutMs?: number;
  /** A connection up this long resets the backoff (default 5 s). */
  stableMs?: number;
  /** Frames per second sent at most (default 10; the daemon closes above 20). */
  maxFramesPerSecond?: number;
}

/** A command the caller sent, handed back with the frame that answers it. */
export interface SentCommand {
  text: string;
  /** What the caller attached to it (for example the market references it named). */
  context?: unknown;
}

export interface ChannelHandlers {
  /** A connection opened: send the subscriptions again. */
  open(reconnect: boolean): void;
  /** A JSON frame; `answers` is the command it answers, for acks and command errors. */
  frame(frame: ServerFrame, answers: SentCommand | undefined): void;
  /** A connection went down; `retryInMs` is null when the client was closed. */
  down(info: { code: number; reason: string; retryInMs: number | null }): void;
  /** Something the caller should hear about (a non-JSON frame, a socket error). */
  problem(error: Error): void;
}

const OPEN = 1;

export class ChannelSocket {
  private socket: WebSocketLike | null = null;
  private attempt = 0;
  private openedAt = 0;
  private connections = 0;
  private lastFrameAt = 0;
  private closed = false;
  private readonly answers: Array<SentCommand | 'ping'> = [];
  private readonly timers = new Timers();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: Timer | undefined;
  private readonly pacer: SendPacer;

  constructor(
    private readonly url: string,
    private readonly Socket: WebSocketConstructor,
    private readonly handlers: ChannelHandlers,
    private readonly options: KeepAliveOptions & { backoff?: BackoffOptions } = {},
  ) {
    this.pacer = new SendPacer(options.maxFramesPerSecond ?? 10, (text) => this.socket?.send(text));
  }

  get isOpen(): boolean {
    return this.socket?.readyState === OPEN && this.openedAt > 0;
  }

  connect(): void {
    if (this.closed || this.socket) return;
    const socket = new this.Socket(this.url);
    this.socket = socket;
    this.openedAt = 0;
    const connectTimer = this.timers.later(this.options.connectTimeoutMs ?? 10_000, () => this.drop(socket, 4000, 'connect timeout'));
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.timers.clear(connectTimer);
      this.openedAt = Date.now();
      this.lastFrameAt = this.openedAt;
      const pingEvery = this.options.pingIntervalMs ?? 15_000;
      this.pingTimer = setInterval(() => this.ping(), pingEvery);
      this.handlers.open(this.connections++ > 0);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.lastFrameAt = Date.now();
      if (typeof event.data !== 'string') return this.handlers.problem(new Error('binary frame ignored'));
      this.receive(event.data);
    };
    socket.onerror = () => {
      // A close event follows; what failed is in it (browsers give no detail here).
    };
    socket.onclose = (event) => {
      if (socket === this.socket) this.down(event.code, event.reason);
    };
  }

  /** Sends a command (paced); its answer comes back to `frame` with this command attached. */
  send(text: string, context?: unknown): void {
    if (!this.isOpen) return; // subscriptions are sent again on open
    this.answers.push({ text, context });
    this.pacer.push(text);
  }

  /** Stops for good: no reconnect, no timer left; resolves once the socket is closed. */
  close(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    this.down(1000, 'client closed');
    if (!socket || socket.readyState === 3) return Promise.resolve();
    return new Promise((resolve) => {
      const done = setTimeout(() => {
        socket.terminate?.();
        resolve();
      }, 2_000);
      socket.onclose = () => {
        clearTimeout(done);
        resolve();
      };
      socket.close(1000, 'client closed');
    });
  }

  /** Drops the current connection now (as if the network failed); it reconnects with backoff. */
  reconnect(reason = 'reconnect requested'): void {
    if (this.socket) this.drop(this.socket, 4000, reason);
  }

  private receive(text: string): void {
    if (text === 'PONG') {
      // Answers come in order: whatever was sent before this PING has had its answer.
      const ping = this.answers.indexOf('ping');
      if (ping >= 0) this.answers.splice(0, ping + 1);
      this.timers.clear(this.pongTimer);
      this.pongTimer = undefined;
      return;
    }
    if (text.trim().toUpperCase() === 'PING') return this.pacer.push('PONG');
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return this.handlers.problem(new Error(`not a JSON frame: ${text.slice(0, 80)}`));
    }
    const isAnswer =
      frame.event === 'subscribed' || frame.event === 'unsubscribed' || (frame.event === 'error' && frame.code !== 'BOOK_UNAVAILABLE');
    let answers: SentCommand | undefined;
    if (isAnswer) {
      while (this.answers[0] === 'ping') this.answers.shift(); // a PONG never comes after a later command's answer
      answers = this.answers.shift() as SentCommand | undefined;
    }
    this.handlers.frame(frame, answers);
  }

  private ping(): void {
    if (!this.isOpen) return;
    this.answers.push('ping');
    this.pacer.push('PING');
    if (this.pongTimer !== undefined) return;
    const timeout = this.options.pongTimeoutMs ?? 10_000;
    const check = () => {
      this.pongTimer = undefined;
      const silent = Date.now() - this.lastFrameAt;
      // Frames still arriving mean the connection lives (the PONG waits behind them).
      if (silent < timeout) this.pongTimer = this.timers.later(timeout - silent, check);
      else if (this.socket) this.drop(this.socket, 4000, `no answer to PING within ${timeout} ms`);
    };
    this.pongTimer = this.timers.later(timeout, check);
  }

  /** Gives up on a socket that does not answer: its later events are ignored. */
  private drop(socket: WebSocketLike, code: number, reason: string): void {
    if (socket !== this.socket) return;
    if (socket.terminate) socket.terminate();
    else socket.close(code, reason);
    this.down(code, reason);
  }

  private down(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.onopen = socket.onmessage = null;
    const stable = this.openedAt > 0 && Date.now() - this.openedAt >= (this.options.stableMs ?? 5_000);
    if (stable) this.attempt = 0;
    this.openedAt = 0;
    this.answers.length = 0;
    this.pacer.reset();
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.timers.clearAll();
    this.pongTimer = undefined;
    if (this.closed) {
      if (socket) this.handlers.down({ code, reason, retryInMs: null });
      return;
    }
    const retryInMs = backoffDelay(this.attempt++, this.options.backoff);
    this.timers.later(retryInMs, () => this.connect());
    this.handlers.down({ code, reason, retryInMs });
  }
}
