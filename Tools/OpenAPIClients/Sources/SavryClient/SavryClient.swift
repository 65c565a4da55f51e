// The types and the client are generated at build time by the OpenAPIGenerator plugin from
// openapi.json, a symlink to Savry's document (Sources/Products/Savry/API/OpenAPI/openapi.json).
