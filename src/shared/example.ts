// A schema's example value (the JSON Schema `examples` keyword): the OpenAPI document shows it, and
// test/http/openapi.test.ts checks every one against its schema.
export const example = <T>(value: T) => ({ examples: [value] });
