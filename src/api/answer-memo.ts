/**
 * An answer's JSON made once per answer object, for reads whose service hands back the very same
 * object while what it shows is unchanged (a page cached by the catalog version: a write moves the
 * version, the page is read anew, and so is its JSON). Serializing a 20-market page was the
 * largest part of the Family A list's cost once the page itself was cached (issue 31).
 *
 * The JSON is made by the route's own response serializer, so the bytes are those the route sent
 * before. It is kept as UTF-8 bytes: a kept answer is sent many times, and a string would be
 * encoded again on every send (Node encodes a string body in the socket write; a page is kilobytes).
 */
import type { FastifyReply } from 'fastify';

/** What a route keeps of an answer: the serializer's JSON as the bytes sent. */
export type AnswerBytes = Buffer;

/** The route serializer's JSON of `envelope`, as bytes. */
export function answerBytes(reply: FastifyReply, envelope: unknown): AnswerBytes {
  return Buffer.from(reply.serialize(envelope) as string, 'utf8');
}

/**
 * Sends kept bytes as the route's JSON answer (a Buffer passes Fastify's send as it is; the
 * content type is the one Fastify gives a serialized JSON answer).
 */
export function sendAnswer(reply: FastifyReply, bytes: AnswerBytes): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
}

/** The bytes of `value`'s envelope, made once per `value` object. */
export function answerMemo<K extends object>(envelope: (value: K) => unknown) {
  const answers = new WeakMap<K, AnswerBytes>();
  return (reply: FastifyReply, value: K): AnswerBytes => {
    let bytes = answers.get(value);
    if (bytes === undefined) answers.set(value, (bytes = answerBytes(reply, envelope(value))));
    return bytes;
  };
}
