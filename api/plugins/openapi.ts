import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { operatorPaths } from '../contract/operations';

/** Whether a route belongs in the document: the API's and the probes; not pages, assets, the docs themselves or /metrics. */
export function isDocumentedRoute(url: string): boolean {
  if (url === operatorPaths.healthz || url === operatorPaths.readyz) return true;
  if (url === operatorPaths.openapi || url === operatorPaths.docs || url.startsWith(`${operatorPaths.docs}/`)) return false;
  return url.startsWith('/api/');
}

/**
 * The docs page's own CSP: Swagger UI's scripts and styles are files served beside it, but it styles
 * elements inline and draws icons as data: images. Nothing from another origin, never framed.
 */
const docsContentSecurityPolicy = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * OpenAPI 3.1 made from the routes' zod schemas (the contract) by fastify-type-provider-zod's
 * transform, at `/api/openapi.json`, browsable at `/api/docs` (Swagger UI). Registered before any
 * route: @fastify/swagger learns each route as it is added.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Lotwise API',
          description: 'The REST API of the Lotwise site: public forms and chat, staff sign-in, leads and conversations.',
          version: '1',
        },
      },
      transform: (route) => (isDocumentedRoute(route.url) ? jsonSchemaTransform(route) : { schema: { hide: true }, url: route.url }),
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, {
      routePrefix: operatorPaths.docs,
      // The page reads the same document at /api/docs/json; Swagger's online validator stays off (the default).
      staticCSP: docsContentSecurityPolicy,
    });
    app.get(operatorPaths.openapi, { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'openapi' },
);
