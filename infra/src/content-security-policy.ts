/**
 * The Content-Security-Policy of the web app, written once: CloudFront's response headers policy
 * (cdk/constructs/web-hosting.ts) and the local API server (local/api-server.ts) both send it, so a page
 * that breaks it locally breaks it on AWS too. Its own origin, plus the real-time WebSocket (IoT Core;
 * locally the broker) and the files bucket (uploads are posted to it, logos are loaded from it).
 *
 * No `blob:` scripts or workers: the MQTT client runs its keep-alive timers in a worker built as a
 * same-origin file (frontend/src/shared/realtime/keepaliveWorker.ts), which script-src 'self' allows.
 */
export function contentSecurityPolicy(origins: {
  realtime: string;
  files: string;
  /**
   * The origin plan URLs are signed for (APP_ORIGIN), when the app may be browsed under another name:
   * a custom domain beside the distribution's, or locally localhost beside 127.0.0.1.
   */
  plans?: string;
}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Component libraries and charts set inline styles.
    "style-src 'self' 'unsafe-inline'",
    // Logos come from presigned URLs of the files bucket; floor plans from this origin (/floorplans/*,
    // signed URLs), and are rendered from blobs.
    `img-src 'self' data: blob: ${origins.files}${origins.plans ? ` ${origins.plans}` : ''}`,
    "font-src 'self' data:",
    `connect-src 'self' ${origins.realtime} ${origins.files}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The Content-Security-Policy a served floor plan carries (CloudFront's plans behaviour and the local
 * twin, both from here): a sanitized SVG opened as a document of its own may load nothing, run nothing
 * and reach nothing; its inline styles and data: images (hatching patterns) still draw. `sandbox`
 * gives it a unique origin, so even a missed script could not read the app's storage.
 */
export const FLOOR_PLAN_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
