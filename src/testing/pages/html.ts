/**
 * The small HTML kit of the mock's pages: escaping, one layout with its stylesheet, money and time as a
 * person reads them. Plain server-rendered HTML, no framework: the pages must work from a bare `npx`.
 *
 * @module
 */

/** Text made safe for HTML text and attribute values: every value shown comes from a request. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A tagged template that escapes each interpolated value unless it is already {@link Html}. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += (Array.isArray(value) ? value : [value]).map((v) => (v instanceof Html ? v.text : escapeHtml(v))).join('');
    out += strings[i + 1] ?? '';
  });
  return new Html(out);
}

/** Markup that is already safe. */
export class Html {
  constructor(readonly text: string) {}
}

/** A card titled with its count, its table or `None yet.` */
export function section(title: string, count: number, table: Html): Html {
  return html`<div class="card"><h2>${title} <span class="muted">(${count})</span></h2>${count === 0 ? html`<p class="empty">None yet.</p>` : table}</div>`;
}

/** `1999` minor units of `USD` as `19.99 USD`, with the currency's own number of decimals (exact, no floats). */
export function formatAmount(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // not an ISO 4217 code: show two decimals
  }
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const units = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return `${minor < 0 ? '-' : ''}${units} ${currency}`;
}

/** A time as `2026-11-23 06:50:43 UTC`. */
export function formatTime(ms: number | undefined): string {
  return ms === undefined ? '' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const STYLE = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5d6677; --line: #e3e7ee; --brand: #3355d1; --ok: #1d7d4f; --bad: #b3261e; --warn: #a35c00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6fa; }
header { background: #182038; color: #fff; padding: 14px 28px; display: flex; align-items: baseline; gap: 16px; }
header b { font-size: 17px; } header span { color: #aab4cc; font-size: 13px; }
main { max-width: 1100px; margin: 24px auto; padding: 0 20px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 20px 24px; margin-bottom: 20px; box-shadow: 0 1px 2px rgba(20,30,60,.04); }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 0 0 12px; }
.muted { color: var(--muted); font-size: 13px; }
.amount { font-size: 34px; font-weight: 650; margin: 12px 0; letter-spacing: -.5px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
th, td { padding: 7px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
tr:last-child td { border-bottom: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 12px 0 0; } dt { color: var(--muted); } dd { margin: 0; word-break: break-all; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; background: #eef1f6; color: var(--muted); }
.badge.ok { background: #e3f4ea; color: var(--ok); } .badge.bad { background: #fbe7e6; color: var(--bad); } .badge.wait { background: #fff2df; color: var(--warn); }
button { font: inherit; border-radius: 8px; border: 1px solid var(--line); background: #fff; padding: 6px 14px; cursor: pointer; }
button.primary { background: var(--brand); border-color: var(--brand); color: #fff; font-weight: 600; }
button.danger { color: var(--bad); border-color: #f0c5c2; }
.actions { display: flex; gap: 10px; margin-top: 18px; } .actions button { padding: 10px 22px; font-size: 15px; }
.attempt { font-size: 13px; margin: 2px 0; } .attempt code { font-size: 12px; }
a { color: var(--brand); } code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
.empty { color: var(--muted); font-style: italic; }
.refusal { background: #fbf4f3; border-radius: 8px; padding: 8px 12px; font-size: 13px; } .refusal .muted { margin-top: 6px; }
code.canonical { display: block; word-break: break-all; }
`;

/** A complete page with the mock's header. */
export function layout(title: string, base: string, body: Html, script = '', status = 200): Response {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new Html(STYLE)}</style></head>
<body><header><b>Mock payment gateway</b><span>${base}</span><span><a style="color:#cfd8ff" href="${base}/">dashboard</a></span></header>
<main>${body}</main>${new Html(script === '' ? '' : `<script>${script}</script>`)}</body></html>`;
  return new Response(page.text, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
