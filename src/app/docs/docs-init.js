// Swagger UI over this server's own OpenAPI document. Served as a file (not inline) so the page can
// run under a Content-Security-Policy without 'unsafe-inline' scripts; nothing is fetched from the
// internet (validatorUrl: null keeps Swagger UI from calling validator.swagger.io). An API key typed
// into Authorize lives in the page only: persistAuthorization would keep it in localStorage, where any
// script of this origin (and anyone at the browser later) could read it.
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: false,
    validatorUrl: null,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
