import { buildOpenApiDocument, type OpenApiDocument } from './buildOpenApiDocument'

let built: OpenApiDocument | undefined

/** The API's OpenAPI document, built once per process (the schemas do not change while it runs). */
export function getOpenApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument()
  return built
}
