import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildOpenApiDocument } from "../../services/api/openapi.ts";

/**
 * Checks recorded responses against the OpenAPI document the service serves, with Ajv (JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1): the operation is found by path template and method,
 * the status must be one the operation documents, and the body must match that status's schema.
 * Paths the document does not hold (404) and wrong methods (405) must still be the error envelope.
 */
type Schema = Record<string, unknown>;
interface Operation {
  pattern: RegExp;
  template: string;
  method: string;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export class OpenApiConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly errorSchema: ValidateFunction;

  constructor() {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Operation["responses"] }>>;
      components: Schema;
    };
    addFormats(this.ajv);
    // References point into the document: it is registered whole under an id they are rewritten to.
    this.ajv.addSchema({ $id: "openapi.json", components: doc.components });
    for (const [template, methods] of Object.entries(doc.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      for (const [method, op] of Object.entries(methods))
        this.operations.push({ pattern, template, method: method.toUpperCase(), responses: op.responses });
    }
    this.errorSchema = this.ajv.compile({ $ref: "openapi.json#/components/schemas/Error" });
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      const rewritten = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'),
      );
      validate = this.ajv.compile(rewritten);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Problems with one response, in words; empty when it conforms. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): string[] {
    const where = `${method} ${path} → ${status}`;
    if (!contentType?.startsWith("application/json"))
      return [`${where}: content-type ${contentType}, not JSON`];
    const candidates = this.operations.filter((op) => op.pattern.test(path));
    const op = candidates.find((o) => o.method === method);
    if (!op) {
      // Requests without a key are limited per address before routing: 429 can come first.
      const expected = candidates.length > 0 ? 405 : 404;
      if (status !== expected && status !== 429)
        return [`${where}: undocumented path or method, expected ${expected}`];
      return this.errorSchema(body)
        ? []
        : [`${where}: not the error envelope: ${this.ajv.errorsText(this.errorSchema.errors)}`];
    }
    const response = op.responses[String(status)];
    if (!response) return [`${where}: status not documented for ${op.method} ${op.template}`];
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return [];
    const validate = this.validator(`${op.method} ${op.template} ${status}`, schema);
    return validate(body) ? [] : [`${where}: ${this.ajv.errorsText(validate.errors)}`];
  }
}
