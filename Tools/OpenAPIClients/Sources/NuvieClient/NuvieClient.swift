// The types and the client are generated at build time by the OpenAPIGenerator plugin from
// openapi.json, a symlink to Nuvie's document (Sources/Products/Nuvie/API/OpenAPI/openapi.json).
