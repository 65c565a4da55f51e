// The types and the client are generated at build time by the OpenAPIGenerator plugin from
// openapi.json, a symlink to Chat's document (Sources/Products/Chat/API/OpenAPI/openapi.json).
