// swagger-ui-dist ships no types: the one function and the options the console passes.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  interface SwaggerUiOptions {
    domNode: HTMLElement;
    spec: Record<string, unknown>;
    requestInterceptor?: (request: { url: string; headers: Record<string, string>; [field: string]: unknown }) => unknown;
    deepLinking?: boolean;
    persistAuthorization?: boolean;
  }
  const SwaggerUIBundle: (options: SwaggerUiOptions) => unknown;
  export default SwaggerUIBundle;
}
