/**
 * The machine-readable API description (`/v3/api-docs`) and Swagger UI (`/swagger-ui`), served
 * from swagger-ui-dist in node_modules (no CDN). The page loads only same-origin scripts, so the
 * security headers' CSP (script-src 'self') holds.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '../../../domain/errors';
import { route, type RouteDef } from '../routes';
import { CssSource, HtmlPage, JavaScriptSource, OpenApiDocument, PngImage } from '../schemas/operation-schemas';

const ASSET_TYPES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

function distDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

function indexHtml(title: string): string {
  const esc = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${esc}</title>
  <link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="/swagger-ui/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/swagger-ui/swagger-initializer.js"></script>
</body>
</html>
`;
}

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/v3/api-docs', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis] });
};
`;

/** What GET /swagger-ui/:file answers, by media type. */
const ASSET_CONTENT = { 'text/css': CssSource, 'application/javascript': JavaScriptSource, 'image/png': PngImage, 'text/html': HtmlPage };

export interface DocsOptions {
  readonly title: string;
  /** The generated document (built once the full route table is known). */
  readonly document: () => Readonly<Record<string, unknown>>;
}

export function docsRoutes(o: DocsOptions): RouteDef[] {
  const dir = distDir();
  const cache = new Map<string, Buffer>();
  const html = indexHtml(o.title);
  const tags = ['docs'];
  /** Files this module writes itself: the page again, and the initializer that points at /v3/api-docs. */
  const generated: Readonly<Record<string, readonly [string, string]>> = {
    'index.html': ['text/html; charset=utf-8', html],
    'swagger-initializer.js': ['application/javascript; charset=utf-8', INITIALIZER],
  };
  return [
    route({
      method: 'get',
      path: '/v3/api-docs',
      summary: 'This OpenAPI 3.1 description',
      tags,
      raw: { content: { 'application/json': OpenApiDocument } },
      handler: async (ctx) => {
        ctx.type = 'application/json';
        ctx.body = o.document();
      },
    }),
    route({
      method: 'get',
      path: '/swagger-ui',
      summary: 'Swagger UI (interactive docs)',
      tags,
      raw: { content: { 'text/html': HtmlPage } },
      handler: async (ctx) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = html;
      },
    }),
    route({
      method: 'get',
      path: '/swagger-ui/:file',
      summary: 'Swagger UI assets (from swagger-ui-dist): styles, scripts, icons; index.html is the page again',
      tags,
      raw: { content: ASSET_CONTENT },
      raises: ['not-found'],
      handler: async (ctx, { params: { file } }) => {
        const own = generated[file];
        if (own !== undefined) {
          [ctx.type, ctx.body] = own;
          return;
        }
        const type = ASSET_TYPES[file];
        if (type === undefined) throw new DomainError('not-found', 'No such Swagger UI asset.');
        let bytes = cache.get(file);
        if (bytes === undefined) {
          bytes = await readFile(path.join(dir, file));
          cache.set(file, bytes);
        }
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.type = type;
        ctx.body = bytes;
      },
    }),
  ];
}
