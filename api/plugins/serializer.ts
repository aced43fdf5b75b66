import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { z } from 'zod';

/**
 * Responses are written by fast-json-stringify, Fastify's own serializer, compiled once per route
 * from the route's zod response schema turned into JSON Schema. Like the zod serializer it replaces,
 * it writes only the fields the contract declares (nothing extra can leak out of a row); it does not
 * parse the value again with zod first, which cost more than the rest of a form post's response.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  fastJson(z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'any' }) as Parameters<typeof fastJson>[0]);
