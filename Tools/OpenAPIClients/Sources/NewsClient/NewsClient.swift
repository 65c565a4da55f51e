// The types and the client are generated at build time by the OpenAPIGenerator plugin from
// openapi.json, a symlink to News's document (Sources/Products/News/API/OpenAPI/openapi.json).
