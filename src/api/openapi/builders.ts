/** The types of the OpenAPI document (the subset written here) and the pieces every tag's routes use. */

/** JSON Schema 2020-12, as OpenAPI 3.1 uses it (the subset written here). */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null' | ('object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null')[];
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: (string | number | boolean | null)[];
  const?: string | number | boolean;
  oneOf?: Schema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  examples?: unknown[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
}

export interface Header {
  description: string;
  schema: Schema;
}

export interface MediaType {
  schema: Schema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { description: string; required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  /** `[]` means no authentication; `[{}]` alongside a scheme means it is optional. */
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect?: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers?: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<'get' | 'post', Operation>>>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
  };
}

/** The paths of one tag (or a few routes of it), in the order the document lists them. */
export type Paths = OpenApiDocument['paths'];

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: Schema): Record<string, MediaType> => ({ 'application/json': { schema } });

/** Refusals every REST request may meet before or besides its own. */
export const commonRefusals = {
  '429': ref('responses', 'RateLimited'),
  '503': ref('responses', 'Unavailable'),
};
