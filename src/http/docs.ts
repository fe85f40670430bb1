import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { contract } from '../contract/openapi';

/*
 * `/docs`: Swagger UI with one plugin of the service's own. Swagger UI shows
 * every answer whose type mentions `xml` as source text, before it looks for
 * images, so the SVG of `GET /v1/diagram` would be shown as markup. The
 * plugin wraps the response body: an `image/svg+xml` answer is drawn as an
 * <img> from a `data:` URL (which the service's Content-Security-Policy
 * already allows in img-src); every other answer keeps Swagger UI's view.
 *
 * The plugin is a script served from /docs itself (script-src 'self'), loaded
 * after swagger-ui-init.js, which builds the UI on window.onload: it wraps
 * SwaggerUIBundle so that the UI is built with the plugin added.
 */
export const SVG_PREVIEW_SCRIPT = `(function () {
  'use strict';
  function SvgPreview() {
    return {
      wrapComponents: {
        responseBody: function (Original, system) {
          return function (props) {
            var React = system.React;
            var type = String(props.contentType || '').toLowerCase();
            if (type.indexOf('image/svg+xml') !== 0 || typeof props.content !== 'string') return React.createElement(Original, props);
            var src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(props.content);
            return React.createElement('div', null,
              React.createElement('h5', null, 'Response body'),
              React.createElement('img', { className: 'svg-preview', src: src, alt: 'SVG answer', style: { maxWidth: '100%', background: '#fff' } }));
          };
        },
      },
    };
  }
  var bundle = window.SwaggerUIBundle;
  if (typeof bundle !== 'function') return;
  var wrapped = function (options) {
    options.plugins = (options.plugins || []).concat([SvgPreview]);
    return bundle(options);
  };
  window.SwaggerUIBundle = Object.assign(wrapped, bundle);
})();
`;

/** `/docs`: Swagger UI of openapi.yaml, with SVG answers drawn as images. */
export function docsPage(): Router {
  const router = Router();
  router.get('/docs/svg-preview.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(SVG_PREVIEW_SCRIPT);
  });
  router.use('/docs', swaggerUi.serve, swaggerUi.setup(contract().document, { customSiteTitle: 'Nardy rules service API', customJs: './svg-preview.js' }));
  return router;
}
