// Building the page. Text always goes in as text nodes (never parsed as HTML), so a name or
// property value holding markup is shown, not run.

// h("a", {href: "#/x", class: "c", onclick: fn}, "text", child, [more]) → an element.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of [children].flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// An API error as the page shows it: status, ErrorModel type and message, never swallowed.
export function errorBox(err) {
  const status = err?.status ? `${err.status} ` : "";
  const kind = err?.type ?? err?.name ?? "Error";
  return h("div", { class: "error", role: "alert" },
    h("span", { class: "kind" }, `${status}${kind}`), String(err?.message ?? err));
}

export function notice(text) {
  return h("div", { class: "notice", role: "status" }, text);
}

// columns: [{label, value: row => node|text, class?, num?}]
export function dataTable(columns, rows, { empty = "Nothing to show.", rowClass, testid } = {}) {
  if (!rows.length) return h("p", { class: "muted" }, empty);
  return h("table", { "data-testid": testid },
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { class: c.num ? "num" : null }, c.label)))),
    h("tbody", {}, rows.map((row) =>
      h("tr", { class: rowClass ? rowClass(row) : null },
        columns.map((c) => h("td", { class: [c.num ? "num" : "", c.class ?? ""].join(" ").trim() || null },
          c.value(row)))))));
}

// A definition list of [label, value] pairs (values may be nodes); empty values are left out.
export function kv(pairs) {
  return h("dl", { class: "kv" }, pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

export function section(title, ...content) {
  return h("section", {}, h("h2", {}, title), content);
}

// A section filled by `load` (an async function returning nodes): "Loading…" until then, the
// error in its place if it fails. Returns the section at once.
export function asyncSection(title, load, { testid } = {}) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const el = h("section", { "data-testid": testid }, title ? h("h2", {}, title) : null, body);
  Promise.resolve()
    .then(load)
    .then((nodes) => replace(body, nodes), (err) => replace(body, errorBox(err)));
  return el;
}

export function fmtTime(ms) {
  if (ms === undefined || ms === null || ms === "") return "";
  const d = new Date(Number(ms));
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString().replace("T", " ").replace("Z", " UTC");
}

export function code(text) {
  return h("code", {}, text);
}

// JSON for display (64-bit ids are already strings: see json.js).
export function pre(value) {
  return h("pre", {}, typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

export function details(summary, ...content) {
  return h("details", {}, h("summary", {}, summary), content);
}

// A row's button (Delete, Revoke): runs `action`, then shows its error, or the notice text it
// returns, in `status`.
export function actionButton(label, status, action, attrs = {}) {
  return h("button", { type: "button", class: "secondary", ...attrs, onclick: async () => {
    replace(status);
    try {
      const result = await action();
      if (typeof result === "string") replace(status, notice(result));
    } catch (err) {
      replace(status, errorBox(err));
    }
  } }, label);
}

// Reads a form's named controls as an object of trimmed strings.
export function formValues(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) out[k] = typeof v === "string" ? v.trim() : v;
  return out;
}

// A submit handler that disables the form's buttons while `action` runs and shows its error
// (or `ok`'s notice) in `status`.
export function onSubmit(form, status, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });
    replace(status);
    try {
      const result = await action(formValues(form));
      if (result instanceof Node || typeof result === "string") replace(status, typeof result === "string" ? notice(result) : result);
    } catch (err) {
      replace(status, errorBox(err));
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  });
  return form;
}
