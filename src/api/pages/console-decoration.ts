/**
 * What every console page gets for the operator viewing it (operator-auth.ts's onSend): the
 * session's CSRF token in each post form, who is logged in with a logout button (in place of the
 * shell's `<!--operator-->`), and no control its role may not use — a form marked
 * `data-role="operator|admin"` is removed below that role, an unmarked post form below `operator`.
 */
import { roleAllows, type OperatorRole } from '../../services/operators/operators.service.js';
import { esc } from './html.js';

interface Viewer {
  name: string;
  role: OperatorRole;
  csrf?: string;
}

const POST_FORM = /<form\b[^>]*method="post"[^>]*>[\s\S]*?<\/form>/g;

export function decorateConsolePage(html: string, viewer: Viewer): string {
  const who = `<div class="who">Logged in as <strong>${esc(viewer.name)}</strong> (${esc(viewer.role)}) <form method="post" action="/admin/logout" style="display:inline" data-keep><button>Log out</button></form></div>`;
  let out = html.replace('<!--operator-->', who).replace(POST_FORM, (form) => {
    if (form.includes('data-keep')) return form;
    const needs = /data-role="(operator|admin)"/.exec(form)?.[1] as OperatorRole | undefined;
    return roleAllows(viewer.role, needs ?? 'operator') ? form : '';
  });
  out = out.replace(/<form\b[^>]*data-role="(operator|admin)"[^>]*>[\s\S]*?<\/form>/g, (form, needs: OperatorRole) =>
    roleAllows(viewer.role, needs) ? form : '',
  );
  if (viewer.csrf)
    out = out.replace(/(<form\b[^>]*method="post"[^>]*>)/g, `$1<input type="hidden" name="_csrf" value="${esc(viewer.csrf)}">`);
  return out;
}
