// Swagger UI over this server's own OpenAPI document. Served as a file (not inline) so the page can
// run under a Content-Security-Policy without 'unsafe-inline' scripts; nothing is fetched from the
// internet (validatorUrl: null keeps Swagger UI from calling validator.swagger.io).
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
