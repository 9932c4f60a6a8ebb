/**
 * Fastify's per-request logger, made only when a request logs. Fastify calls `logger.child({ reqId })`
 * for every request, and a pino child with redaction costs about as much as a small route's
 * handler; a request that logs nothing at the configured level (nearly every one at `info`) never
 * needs it. The stand-in below checks the level first and builds the real child on the first line
 * that will be written, with the same bindings, so what is logged does not change.
 *
 * It is installed as the app logger's own `child` method rather than as Fastify's
 * `childLoggerFactory`: with any factory but its default, Fastify validates the returned logger on
 * every request (seven method checks, two arrays and a closure), and the default factory calls
 * `logger.child(bindings, options)`, which lands here.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type ParentLogger = FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };
type ChildMethod = (this: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions) => FastifyBaseLogger;

class LazyRequestLogger implements FastifyBaseLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    /** The logger's own child method (pino's), called on `parent`. */
    private readonly makeChild: ChildMethod,
  ) {}

  get level(): LevelWithSilentOrString {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.child$().level = level;
  }

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.child$().child(bindings, options);
  }

  private child$(): FastifyBaseLogger {
    return (this.real ??= this.makeChild.call(this.parent, this.bindings));
  }

  /** Once made (or its level set), the real child decides, as it would have all along. */
  write(level: Level, args: Parameters<LogFn>): void {
    if (!this.real && this.parent.isLevelEnabled && !this.parent.isLevelEnabled(level)) return;
    this.child$()[level](...args);
  }
}

// On the prototype, so a request that never logs allocates nothing but the stand-in itself.
const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
for (const level of LEVELS) {
  LazyRequestLogger.prototype[level] = function (this: LazyRequestLogger, ...args: Parameters<LogFn>) {
    this.write(level, args);
  } as LogFn;
}
LazyRequestLogger.prototype.silent = (() => undefined) as LogFn;

/**
 * Makes every child of `logger` asked for without options (Fastify's per-request `{ reqId }`) a
 * lazy one; a child with options (a route's or plugin's own level or serializers) is made at once.
 * Pino makes a child with `Object.create(parent)`, so the children made here inherit this method
 * and theirs are lazy too, each with its own parent.
 */
export function makeRequestLoggersLazy(logger: FastifyBaseLogger): void {
  const makeChild = logger.child as ChildMethod;
  logger.child = function lazyChild(this: ParentLogger, bindings: Bindings, options?: ChildLoggerOptions) {
    if (options) for (const _ in options) return makeChild.call(this, bindings, options);
    return new LazyRequestLogger(this, bindings, makeChild);
  } as FastifyBaseLogger['child'];
}
