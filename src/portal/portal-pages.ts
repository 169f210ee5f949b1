// What a portal page author writes against (docs/architecture.md "The channel portal").
// A section (Visão geral, Links, Webhooks, …) is one entry of PORTAL_SECTIONS
// (sections.ts): its nav label and path, and a `register` that adds its pages and
// actions through PortalRoutes. The plumbing (portal.routes.ts) does the rest:
//   page(path, handler)    GET, needs a live session (none: a 401 "Sessão encerrada" page).
//   action(path, handler)  POST, also needs the form's `_csrf` (else 403, nothing runs) and
//                          the `escrita` permission (read-only: 403, nothing runs); then records
//                          the `change` it returns (who: the session; what; target; when).
// Both are rate-limited per channel like the API; every answer, a failure included, is a
// page in the portal's layout (an AppError such as notFound() becomes its page).
import type { Context } from '../context.ts';
import type { SafeHtml } from '../http/html.ts';
import type { Change } from './changes.service.ts';
import type { PortalSession } from './sessions.service.ts';
import type { UploadedFile, UploadSpec } from './upload.plugin.ts';

export type { Change, PortalSession, UploadedFile, UploadSpec };

export interface PortalRequest {
  session: PortalSession;
  /** Path parameters (`/portal/webhooks/entregas/:id` gives `id`): check them (isUuid) before use. */
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** Put it in every form that changes something: `csrfField(request.csrf)` or `postForm`. */
  csrf: string;
}

export interface PortalActionRequest extends PortalRequest {
  /** The submitted form's fields (`_csrf` already checked). */
  form: Record<string, string>;
}

export interface PortalUploadRequest extends PortalActionRequest {
  /** The form's file, when one was chosen (its bytes within the spec's limit). */
  file?: UploadedFile;
  /** Why the upload was refused (a second file, too big, …), in pt-BR: show it, change nothing. */
  problem?: string;
}

/** A page: `title` is its one h1 and its <title>; `body` goes in <main> after the h1. */
export interface PortalPage {
  title: string;
  body: SafeHtml;
  /** 200 unless said (422 for a form shown again with its errors). */
  status?: number;
}

/**
 * An action's answer: 303 to `redirect` (a /portal path; POST-redirect-GET), recording
 * `change` right after the handler; or a page (422 with errors). A handler whose service
 * runs its own transaction records the change inside it instead (recordChange(tx, …),
 * changes.service.ts) and returns no `change`: then both commit or neither does.
 */
export type PortalActionResult = { redirect: string; change?: Change } | PortalPage;

export type PageHandler = (request: PortalRequest) => Promise<PortalPage>;
export type ActionHandler = (request: PortalActionRequest) => Promise<PortalActionResult>;
export type UploadHandler = (request: PortalUploadRequest) => Promise<PortalActionResult>;

export interface PortalRoutes {
  /** The service's context: pass it to the domain services (they take plain values). */
  ctx: Context;
  /** A GET page under /portal that needs a session. */
  page(path: string, handler: PageHandler): void;
  /** A POST under /portal that needs a session, its CSRF token and `escrita`. */
  action(path: string, handler: ActionHandler): void;
  /**
   * An action whose form is multipart/form-data with one file (upload.ts): the same checks
   * as `action`, made before the handler runs, with multipart accepted on this route only.
   */
  upload(path: string, spec: UploadSpec, handler: UploadHandler): void;
}

/** One entry of the portal's nav, and the pages behind it. */
export interface PortalSection {
  /** The nav label, e.g. 'Webhooks'. */
  label: string;
  /** The section's main page (the nav links here; pages under `path/` mark it current). */
  path: string;
  /** Only where CONSIGNA_AMBIENTE is SANDBOX: neither the nav entry nor the routes exist elsewhere. */
  sandboxOnly?: boolean;
  register(portal: PortalRoutes): void;
}
