/** The admin login form (plain HTML, no scripts). */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function loginPage(next: string, failed: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PMX admin login</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}
input,button{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0}
.err{color:#b00020}</style></head>
<body><h1>PMX operator login</h1>
<p>Your operator name and secret (<code>npm run operator -- add &lt;name&gt;</code> printed it), or <code>admin</code> and the admin token (the file named in the daemon's startup log, <code>DATA_DIR/admin-token</code>).</p>
${failed ? '<p class="err" role="alert">That name and secret are not valid.</p>' : ''}
<form method="post" action="/admin/login">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="name">Name</label>
<input id="name" name="name" autocomplete="username" required autofocus>
<label for="secret">Secret</label>
<input id="secret" name="secret" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form></body></html>`;
}
