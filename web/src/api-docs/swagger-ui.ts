// Swagger UI's prebuilt bundle (swagger-ui-dist, the files Nest's /api/docs serves) and its CSS, in a
// chunk of their own: only the API docs page loads them.
import 'swagger-ui-dist/swagger-ui.css';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js';
import type { OpenApiDocument, SwaggerRequest } from './openapi-document';

/** Renders the document into `domNode`; every call it tries goes through `requestInterceptor`. */
export function mountSwaggerUi(domNode: HTMLElement, spec: OpenApiDocument, requestInterceptor: (request: SwaggerRequest) => SwaggerRequest): void {
  SwaggerUIBundle({
    domNode,
    spec,
    requestInterceptor,
    // The console owns the address bar: no #/tag/operation fragments written into it.
    deepLinking: false,
    // The document's own Authorize keeps what a person types for this page only.
    persistAuthorization: false,
  });
}
