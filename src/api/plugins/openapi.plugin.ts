/**
 * OpenAPI 3 document generated from the route schemas, served at /openapi.json, with Swagger UI
 * at /docs. Routes declare `tags` by family so the document reads family by family.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

type Operation = { parameters?: { required?: boolean; schema?: { default?: unknown } }[] };

/**
 * A query parameter with a default (`limit`, `depth`, …) may be left out: Fastify fills it in.
 * @fastify/swagger lists it as required all the same, and a generated client (packages/client)
 * would then make every caller pass it.
 */
function defaultedParametersOptional(doc: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const operations of Object.values(doc.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const parameter of operation.parameters ?? []) if (parameter.schema?.default !== undefined) parameter.required = false;
}

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    transformObject: (document) => {
      const doc = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
      defaultedParametersOptional(doc as Parameters<typeof defaultedParametersOptional>[0]);
      return doc;
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'PMX prediction-market daemon API',
        version,
        description:
          'Family A: slug markets paid with x402 USDC payments. Family B: integer-id AMM/Pool markets whose ' +
          'write endpoints return unsigned transactions. Family C: the orderbook. Amounts: see docs/api.md.',
      },
      tags: [
        { name: 'A', description: 'Family A: slug markets, x402 payments, claims' },
        { name: 'B', description: 'Family B: AMM/Pool markets, unsigned transactions, positions' },
        { name: 'C', description: 'Family C: orderbook' },
        { name: 'admin', description: 'Operator endpoints (Authorization: Bearer <admin token>)' },
        { name: 'system', description: 'Health, readiness, metrics' },
      ],
      components: {
        securitySchemes: {
          adminToken: { type: 'http', scheme: 'bearer' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when configured' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
