/** The console pages' door: an operator passes; a browser is sent to log in (and back); anything else gets 401. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAdminRequest } from '../plugins/admin-auth.js';

export function adminPage() {
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (isAdminRequest(request)) return true;
    if ((request.headers.accept ?? '').includes('text/html'))
      void reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 302);
    else void reply.status(401).send({ success: false, error: { code: 'UNAUTHORIZED', message: 'Admin token required' } });
    return false;
  };
}
