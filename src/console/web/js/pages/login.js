// Log in with client credentials (the OAuth token endpoint). The secret goes to the server in
// the form body and is kept nowhere; the token is kept in sessionStorage (api.js).
import * as api from "../api.js";
import { errorBox, h, onSubmit, replace } from "../dom.js";

export function loginPage({ message, onLogin }) {
  const status = h("div", {}, message ? errorBox({ type: "Session", message }) : null);
  const form = h("form", { class: "stack", id: "login-form", autocomplete: "off" },
    h("label", {}, "Client id", h("input", { name: "clientId", id: "client-id", required: true, autocomplete: "username" })),
    h("label", {}, "Client secret", h("input", { name: "clientSecret", id: "client-secret", type: "password", required: true, autocomplete: "current-password" })),
    h("label", {}, "Realm (empty: the server's default)", h("input", { name: "realm", id: "realm" })),
    h("label", {}, "Scope", h("input", { name: "scope", id: "scope", value: "PRINCIPAL_ROLE:ALL" })),
    h("button", { type: "submit", id: "login-submit" }, "Log in"));
  onSubmit(form, status, async (values) => {
    await api.login(values);
    form.elements.clientSecret.value = "";
    replace(status);
    onLogin();
  });
  return h("div", { class: "login" },
    h("section", {},
      h("h1", {}, "Log in to Firn"),
      h("p", { class: "muted" }, "With a principal's client credentials. The console shows what this principal may see, nothing more."),
      form, status));
}
