// The provider's route push endpoint, outside the signed /www API: the
// courier company posts it without our signature or a session (SF posts a
// form, application/x-www-form-urlencoded), and its own signature is checked
// over the raw body. Whatever arrives is answered in the provider's format,
// never with a stack trace.
import type { FastifyInstance } from 'fastify';
import type { CourierService } from './courier.service.ts';

/** Pushes are small; anything bigger is not one (SF batches at most a few dozen routes). */
const PUSH_BODY_LIMIT = 64 * 1024;

/** POST /courier/notify/{provider}: the raw body, answered in the provider's format. */
export async function registerPushRoute(app: FastifyInstance, providerName: string, service: CourierService): Promise<void> {
  await app.register(async (scope) => {
    // Whatever the content type, the body is kept as the exact text that was signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: PUSH_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(`/courier/notify/${providerName}`, { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const answer = await service.notify(raw, request.headers);
      return reply.status(answer.status).type(answer.contentType).send(answer.body);
    });
  });
}
