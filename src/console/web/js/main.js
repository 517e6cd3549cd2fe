// Entry point: settings, session, hash routing. One module per page under pages/; a route is
// a pattern of path segments (":name" captures one, decoded) and the page's render function,
// which gets the captured names, the query and the element to fill.
import * as api from "./api.js";
import { errorBox, h, replace } from "./dom.js";
import { loginPage } from "./pages/login.js";
import { catalogPage, catalogsPage } from "./pages/catalogs.js";
import { namespacePage } from "./pages/namespace.js";
import { tablePage } from "./pages/table.js";
import { viewPage } from "./pages/view.js";
import { principalPage, principalsPage } from "./pages/principals.js";
import {
  catalogRolePage, catalogRolesPage, principalRolePage, principalRolesPage,
} from "./pages/roles.js";
import { auditPage } from "./pages/audit.js";
import { metricsPage } from "./pages/metrics.js";
import { eventsPage } from "./pages/events.js";

const ROUTES = [
  ["catalogs", catalogsPage],
  ["catalogs/:catalog", catalogPage],
  ["catalogs/:catalog/namespaces/:namespace", namespacePage],
  ["catalogs/:catalog/namespaces/:namespace/tables/:table", tablePage],
  ["catalogs/:catalog/namespaces/:namespace/views/:view", viewPage],
  ["catalogs/:catalog/roles", catalogRolesPage],
  ["catalogs/:catalog/roles/:role", catalogRolePage],
  ["principals", principalsPage],
  ["principals/:principal", principalPage],
  ["principal-roles", principalRolesPage],
  ["principal-roles/:role", principalRolePage],
  ["audit", auditPage],
  ["metrics", metricsPage],
  ["events", eventsPage],
].map(([pattern, render]) => ({ parts: pattern.split("/"), render }));

const view = document.getElementById("view");
let expiredMessage = null;

function match(path) {
  const segments = path.split("/").filter((s) => s !== "");
  for (const route of ROUTES) {
    if (route.parts.length !== segments.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const want = route.parts[i];
      if (want.startsWith(":")) {
        try {
          params[want.slice(1)] = decodeURIComponent(segments[i]);
        } catch {
          ok = false;
        }
      } else {
        ok = want === segments[i];
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

function showChrome(session) {
  document.getElementById("nav").hidden = !session;
  document.getElementById("logout").hidden = !session;
  const who = document.getElementById("who");
  who.textContent = session ? `client ${session.clientId}${session.realm ? ` in realm ${session.realm}` : ""}` : "";
}

async function render() {
  const session = api.currentSession();
  showChrome(session);
  const hash = window.location.hash.replace(/^#\/?/, "");
  const [path, queryText] = hash.split("?", 2);
  if (!session) {
    replace(view, loginPage({ message: expiredMessage, onLogin: () => {
      expiredMessage = null;
      render();
    } }));
    return;
  }
  if (!path) {
    window.location.hash = "#/catalogs";
    return;
  }
  const found = match(path);
  const page = h("div", { class: "page" });
  replace(view, page);
  if (!found) {
    replace(page, h("h1", {}, "Not found"), h("p", {}, "No page at this address."));
    return;
  }
  try {
    await found.route.render(page, found.params, new URLSearchParams(queryText ?? ""));
  } catch (err) {
    page.append(errorBox(err));
  }
}

api.setExpiredHandler((err) => {
  expiredMessage = `Your session ended (${err.status} ${err.type}: ${err.message}). Log in again.`;
  api.forgetPrefixes();
  render();
});

document.getElementById("logout").addEventListener("click", () => {
  api.logout();
  api.forgetPrefixes();
  render();
});
window.addEventListener("hashchange", render);

api.loadSettings().then(render, (err) => replace(view, errorBox(err)));
