export type ApiReferenceHtmlParameters = {
  /** this response's CSP nonce (proxy.ts): the one way the reference's script runs */
  nonce: string
  /** where the OpenAPI document is read from: our own origin */
  documentUrl: string
  /** where Scalar's standalone bundle is served from: our own origin */
  scriptUrl: string
}

/**
 * Scalar's settings: nothing fetched from another origin (no web fonts, no telemetry, no "open in client" service).
 * The page's CSP would block those requests; these settings keep them from being made at all.
 */
const configuration = { withDefaultFonts: false, telemetry: false, hideClientButton: true, persistAuth: false }

/** Text safe inside a double-quoted HTML attribute. */
const attribute = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/**
 * The HTML of /docs/api: Scalar's API reference of the OpenAPI document, its bundle served from our own origin. The
 * `#api-reference` element is data (JSON type, never run); the bundle's script carries the nonce, so it runs under
 * the page's strict CSP with no 'unsafe-inline' and no 'unsafe-eval'.
 */
export function apiReferenceHtml({ nonce, documentUrl, scriptUrl }: ApiReferenceHtmlParameters): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<title>API · mintdesk</title>',
    '</head>',
    '<body>',
    `<script id="api-reference" type="application/json" data-url="${attribute(documentUrl)}" data-configuration="${attribute(JSON.stringify(configuration))}"></script>`,
    `<script nonce="${attribute(nonce)}" src="${attribute(scriptUrl)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n')
}
