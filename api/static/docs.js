// The API docs page (/api/docs): Swagger UI over the OpenAPI document. A file of its own, not
// an inline script, so that the page's Content-Security-Policy allows scripts of this origin
// only. A token typed into "Authorize" stays in this page's memory: it is not kept in
// localStorage, which the phones' scorekeeper page shares with this origin.
"use strict";
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.spec,
    domNode: root,
    deepLinking: true,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "BaseLayout"
  });
});
