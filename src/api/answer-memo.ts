/**
 * An answer's JSON made once per answer object, for reads whose service hands back the very same
 * object while what it shows is unchanged (a page cached by the catalog version: a write moves the
 * version, the page is read anew, and so is its JSON). Serializing a 20-market page was the
 * largest part of the Family A list's cost once the page itself was cached (issue 31).
 *
 * The JSON is made by the route's own response serializer, so the bytes are those the route sent
 * before; a string with a JSON content type passes Fastify's send as it is.
 */
import type { FastifyReply } from 'fastify';

export function answerMemo<K extends object>(envelope: (value: K) => unknown) {
  const answers = new WeakMap<K, string | Buffer | ArrayBuffer>();
  return (reply: FastifyReply, value: K): FastifyReply => {
    let json = answers.get(value);
    if (json === undefined) answers.set(value, (json = reply.serialize(envelope(value))));
    return reply.type('application/json; charset=utf-8').send(json);
  };
}
