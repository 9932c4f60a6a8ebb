/**
 * The operator and audit hooks run as parts of one preHandler and one onSend hook
 * (src/api/hook-pairs.ts): in order, an answer without `done` ends the chain, an error skips the
 * rest, and a part that hands back no payload leaves it as it was.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { chainOnSend, chainPreHandlers, type OnSendPart, type PreHandlerPart } from '../../src/api/hook-pairs.js';

const request = {} as FastifyRequest;
const reply = {} as FastifyReply;

describe('hook parts as one hook', () => {
  it('preHandler parts run in order; one that answers without done ends the chain; an error skips the rest', () => {
    const seen: string[] = [];
    const part =
      (name: string, outcome: 'next' | 'stop' | 'fail' = 'next'): PreHandlerPart =>
      (_request, _reply, done) => {
        seen.push(name);
        if (outcome === 'next') done();
        if (outcome === 'fail') done(new Error(name));
      };
    const results: unknown[] = [];
    chainPreHandlers([part('a'), part('b')])(request, reply, (err) => results.push(err ?? 'done'));
    chainPreHandlers([part('c', 'stop'), part('d')])(request, reply, (err) => results.push(err ?? 'done'));
    chainPreHandlers([part('e', 'fail'), part('f')])(request, reply, (err) => results.push((err as Error).message));
    expect(seen).toEqual(['a', 'b', 'c', 'e']);
    expect(results).toEqual(['done', 'e']);
  });

  it('onSend parts pass the payload along; no payload handed back keeps it; an error skips the rest', () => {
    const upper: OnSendPart = (_request, _reply, payload, done) => done(null, String(payload).toUpperCase());
    const keep: OnSendPart = (_request, _reply, _payload, done) => done();
    const wrap: OnSendPart = (_request, _reply, payload, done) => done(null, `<${String(payload)}>`);
    const fail: OnSendPart = (_request, _reply, _payload, done) => done(new Error('audit'));
    const out: unknown[] = [];
    chainOnSend([upper, keep, wrap])(request, reply, 'page', (err, payload) => out.push(err ?? payload));
    chainOnSend([fail, wrap])(request, reply, 'page', (err, payload) => out.push(err ? (err as Error).message : payload));
    chainOnSend([])(request, reply, 'same', (err, payload) => out.push(err ?? payload));
    expect(out).toEqual(['<PAGE>', 'audit', 'same']);
  });
});
